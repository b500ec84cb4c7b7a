import { z } from 'zod';
import '../src/index.js';

const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message);

describe("refusals no schema words itself are in the API's words, not zod's", () => {
  it.each<[string, z.ZodType, unknown, string[]]>([
    ['a number where a string belongs', z.string(), 5, ['must be a string, not a number']],
    ['null where an array belongs', z.array(z.string()), null, ['must be an array, not null']],
    // an object is "an object", not "a object" (a style's name sent as {"a": 1})
    ['an object where a string belongs', z.string(), { a: 1 }, ['must be a string, not an object']],
    ['a member that is missing', z.object({ url: z.string() }), {}, ['is missing: must be a string']],
    ['a fraction where a whole number belongs', z.number().int(), 1.5, ['must be a whole number']],
    ['too few entries', z.array(z.string()).min(2), ['a'], ['must have at least 2 entries']],
    ['too long a string', z.string().max(3), 'abcd', ['must have at most 3 characters']],
    ['a number below its least', z.number().min(0), -1, ['must be at least 0']],
    ['zero where more than zero belongs', z.number().positive(), 0, ['must be more than 0']],
    ['a value not among the choices', z.enum(['daily', 'hourly']), 'weekly', ['must be one of "daily", "hourly"']],
    ['another literal', z.literal('Polygon'), 'Point', ['must be "Polygon"']],
    [
      'members a strict object does not take',
      z.strictObject({ a: z.string() }),
      { a: 'x', b: 1, c: 2 },
      ['"b", "c" are not members this object takes'],
    ],
    ['not a UUID', z.uuid(), 'abc', ['must be a UUID']],
    // NaN is typeof number: a coerced text that is not a number must not read "a number, not a number"
    ['a text coerced to no number', z.coerce.number(), 'abc', ['must be a number']],
    // JSON.parse reads 1e400 as Infinity: typeof number too
    [
      'a number past every double',
      z.number(),
      JSON.parse('1e400'),
      ['must be a number, not one beyond the largest JSON number this API reads (±1.8e308)'],
    ],
  ])('%s', (_, schema, value, expected) => {
    expect(messages(schema, value)).toEqual(expected);
  });

  it("a schema's own words come first", () => {
    expect(messages(z.string({ error: 'description must be text' }), 5)).toEqual(['description must be text']);
  });
});
