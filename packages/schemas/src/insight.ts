// zod schemas of the insight area's requests and records (docs/interface.md).
export {};
