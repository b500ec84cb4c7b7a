// zod schemas of the observations area's requests and records (docs/interface.md).
export {};
