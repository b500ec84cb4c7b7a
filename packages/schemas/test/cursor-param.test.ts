// Every list's keyset cursor is refused in the words of the other query parameters: a cursor
// given twice reaches the schema as an array (Express's simple query parser), and is told so.
import { z } from 'zod';
import { cursorParam, FeedQuery, ObservationSetsQuery, StyleListQuery } from '../src/index.js';

const ID = '3F1C2A70-0000-4000-8000-000000000000';
const errorsOf = (schema: z.ZodType, query: Record<string, unknown>) => {
  const result = schema.safeParse(query);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('cursorParam', () => {
  const Query = z.object({ after: cursorParam({ name: 'after', names: 'the id of a thing', description: 'd' }).optional() });

  it('takes one UUID, in canonical lower case', () => {
    expect(Query.parse({ after: ID })).toEqual({ after: ID.toLowerCase() });
  });

  it('names the parameter and what it names, and says when it is given twice', () => {
    expect(errorsOf(Query, { after: 'x' })).toEqual([{ path: 'after', message: 'after must be the id of a thing (a UUID)' }]);
    expect(errorsOf(Query, { after: [ID, ID] })).toEqual([
      { path: 'after', message: 'after must be given once, as the id of a thing (a UUID)' },
    ]);
  });
});

describe('each list’s cursor given twice', () => {
  it.each([
    ['the feeds’ after', FeedQuery, 'after', 'after must be given once, as the id of an event (a UUID)'],
    ['the feeds’ before', FeedQuery, 'before', 'before must be given once, as the id of an event (a UUID)'],
    ['a product’s styles', StyleListQuery, 'after', 'after must be given once, as the id of a contributed style (a UUID)'],
    ['observation sets', ObservationSetsQuery, 'before', 'before must be given once, as the id of an observation set (a UUID)'],
  ])('%s', (_list, schema, name, message) => {
    expect(errorsOf(schema, { [name]: [ID, ID] })).toEqual([{ path: name, message }]);
  });
});
