import { batchBody, MAX_BATCH_LOCATIONS } from '../src/batch.js';

/* The body of every batch (docs/decisions/0242-batch-requests.md): what a caller is told about it. */
describe('batchBody', () => {
  const messages = (body: unknown) =>
    batchBody('field')
      .safeParse(body)
      .error?.issues.map((i) => i.message);

  it('names the most entries as every other answer about a batch does, 1,000', () => {
    expect(MAX_BATCH_LOCATIONS).toBe(1000);
    for (const body of [{}, { locations: 'x' }, { locations: { 0: [1, 2] } }])
      expect(messages(body)).toEqual(['locations must be an array of up to 1,000 entries']);
  });
});
