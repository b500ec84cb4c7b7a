/**
 * Who may see a public event: nobody's account. Stored as this nil UUID (RFC 9562 section 5.9)
 * rather than null so `audience = PUBLIC_AUDIENCE` is an equality the planner can range-scan
 * (docs/architecture.md §5). A migration and the store both use it, so it lives outside either.
 */
export const PUBLIC_AUDIENCE = '00000000-0000-0000-0000-000000000000';
