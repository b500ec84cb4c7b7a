import { z } from 'zod';
import { formatIssues } from '../src/api.js';

const issuesOf = (schema: z.ZodType, value: unknown) => formatIssues(schema.safeParse(value).error?.issues ?? []);

describe('formatIssues: one fault per value', () => {
  it('drops the length check zod runs on a value refused for its type', () => {
    // zod tells a string where an array belongs that it is too short, too: a fault of a type the value never had
    const tags = z.object({ tags: z.array(z.string(), { error: 'tags must be an array of names' }).min(1) });
    expect(issuesOf(tags, { tags: '' })).toEqual([{ path: 'tags', message: 'tags must be an array of names' }]);
  });

  it('names the members a strict object does not take, in words', () => {
    const body = z.strictObject({ url: z.string(), filter: z.strictObject({ namespaces: z.array(z.string()) }).optional() });
    expect(issuesOf(body, { url: 'https://example.com', secret: 'x', filter: { namespaces: [], apps: [], kinds: [] } })).toEqual([
      { path: 'filter', message: '"apps", "kinds" are not members this object takes' },
      { path: '', message: '"secret" is not a member this object takes' },
    ]);
  });

  it('keeps every fault of a value of the right type, and those at other paths', () => {
    const body = z.object({ name: z.string().min(3, { error: 'too short' }).regex(/^a/, { error: 'starts with a' }), count: z.number() });
    expect(issuesOf(body, { name: 'b', count: 'x' })).toEqual([
      { path: 'name', message: 'too short' },
      { path: 'name', message: 'starts with a' },
      { path: 'count', message: expect.any(String) },
    ]);
  });
});
