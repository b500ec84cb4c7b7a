// zod schemas of the tiles area's requests and records (docs/interface.md).
export {};
