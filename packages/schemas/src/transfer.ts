// zod schemas of the transfer area's requests and records (docs/interface.md).
export {};
