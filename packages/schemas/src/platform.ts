// zod schemas of the platform area's requests and records (docs/interface.md).
export {};
