import { z } from 'zod';

/**
 * Error body of every area (docs/architecture.md §3): RFC 9457 problem details plus the public
 * record's stable snake_case `id` and human `message`.
 */
export const Problem = z
  .object({
    type: z.string().describe('URI naming the problem kind: urn:fieldcast:problem:<id>'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    id: z.string().describe('stable snake_case code, e.g. field_does_not_exist'),
    message: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;
