// A parameter's examples are what a client sends, so they belong on the input side of its JSON
// Schema, the side the OpenAPI documents give parameters (packages/kit/src/openapi.ts). zod drops
// the examples of a schema that transforms its value from that side; the parameters that read a
// number from text must still show theirs.
import { z } from 'zod';
import * as schemas from '../src/index.js';
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

/** What zod holds as a schema's examples, on it or on what it wraps (optional, default, a transform's input). */
function examplesOf(schema: z.ZodType): unknown[] | undefined {
  for (let s: z.ZodType | undefined = schema; s;) {
    const examples = z.globalRegistry.get(s)?.examples;
    if (Array.isArray(examples)) return examples;
    const def = s._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
    s = def.innerType ?? def.in;
  }
  return undefined;
}

/** An exported schema's object of members: itself, or what a transform of the whole reads. */
function objectOf(schema: unknown): z.ZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodPipe) return objectOf(schema._zod.def.in);
  return undefined;
}

it('every member of every exported schema that zod gives examples states them on its input side, and takes them', () => {
  const faults: string[] = [];
  for (const [exported, value] of Object.entries(schemas)) {
    const object = objectOf(value);
    if (!object) continue;
    type Json = { properties?: Record<string, { examples?: unknown[] }>; $ref?: string; $defs?: Record<string, Json> };
    const json = z.toJSONSchema(object, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
    // a named schema is a reference to its definition
    const input = json.$ref ? json.$defs![json.$ref.replace('#/$defs/', '')]! : json;
    for (const [name, member] of Object.entries(object.shape as Record<string, z.ZodType>)) {
      const examples = examplesOf(member);
      if (!examples) continue;
      if (!input.properties?.[name]?.examples) faults.push(`${exported}.${name}: no examples on its input side`);
      for (const example of examples)
        if (!member.safeParse(example).success) faults.push(`${exported}.${name}: refuses ${JSON.stringify(example)}`);
    }
  }
  expect(faults).toEqual([]);
});
