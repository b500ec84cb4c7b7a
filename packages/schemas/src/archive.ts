// zod schemas of the archive area's requests and records (docs/interface.md).
export {};
