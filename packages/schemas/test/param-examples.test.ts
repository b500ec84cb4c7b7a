// A parameter's examples are what a client sends, so they belong on the input side of its JSON
// Schema, the side the OpenAPI documents give parameters (packages/kit/src/openapi.ts). zod drops
// the examples of a schema that transforms its value from that side; the parameters that read a
// number from text must still show theirs.
import { z } from 'zod';
import { coordinateParam, countParam } from '../src/index.js';

const inputOf = (schema: z.ZodType) =>
  (
    z.toJSONSchema(z.object({ p: schema }), { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as {
      properties: Record<string, { examples?: unknown[]; description?: string; pattern?: string }>;
    }
  ).properties.p;

it('a coordinate’s example is on its input side, with its description, and its schema takes it', () => {
  const latitude = coordinateParam('latitude', 90, '42.0308');
  expect(inputOf(latitude)).toMatchObject({ examples: ['42.0308'], description: 'latitude, decimal degrees (WGS84), -90..90' });
  expect(latitude.parse('42.0308')).toBe(42.0308);
});

it('a count’s examples are on its input side, with its description, and its schema takes them', () => {
  const limit = countParam({ max: 100, description: 'most items', examples: ['10'] });
  expect(inputOf(limit)).toMatchObject({ examples: ['10'], description: 'most items' });
  expect(inputOf(limit.optional())).toMatchObject({ examples: ['10'] });
  expect(limit.parse('10')).toBe(10);
  // a count given no examples states none
  expect(inputOf(countParam({ description: 'most items' }))).not.toHaveProperty('examples');
});
