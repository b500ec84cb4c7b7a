// zod schemas of the model area's requests and records (docs/interface.md).
export {};
