import fc from 'fast-check';

/** A JSON Schema (draft 2020-12) as it appears in an OpenAPI 3.1 document. */
export type JsonSchema = Record<string, unknown>;

/** Resolves `#/components/schemas/X` references against the document they came from. */
export type Resolve = (schema: JsonSchema) => JsonSchema;

export function resolverOf(document: { components?: { schemas?: Record<string, JsonSchema> } }): Resolve {
  const named = document.components?.schemas ?? {};
  return function resolve(schema) {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const target = named[ref.replace('#/components/schemas/', '')];
    if (!target) throw new Error(`dangling $ref ${ref}`);
    return resolve(target);
  };
}

/**
 * Strings a validator or a database is known to trip on: NUL (PostgreSQL text refuses U+0000),
 * unpaired UTF-16 surrogates (not Unicode scalar values, RFC 8259 section 8.2), bidi and combining
 * marks, path traversal, very long text.
 */
export const BAD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\ude00x',
  '\u202e\u0301\ufeff',
  '😀'.repeat(3),
  '../../etc/passwd',
  "' or '1'='1",
  '%00',
  '%ff',
  'null',
  'NaN',
  '-Infinity',
  '1e999',
  '9'.repeat(400),
  'x'.repeat(10_001),
];

/** Numbers at and past the edges of IEEE 754 doubles and safe integers. */
export const HUGE_NUMBERS: readonly number[] = [
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -(Number.MAX_SAFE_INTEGER + 2),
  Number.MIN_VALUE,
  -0,
  0.1 + 0.2,
  2 ** 31,
  -(2 ** 31) - 1,
];

/**
 * Stands for the n-th id or handle the fleet has handed out, replaced when the request is sent
 * (generation happens before the fleet has answered anything).
 */
export function knownToken(n: number): string {
  return `\u0001known:${n}\u0001`;
}

export const KNOWN_TOKEN = /\\u0001known:(\d+)\\u0001/g;

const WRONG_TYPES: readonly unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', [], {}, [null], { '': null }];

const depthLimit = 6;

function numberBounds(schema: JsonSchema): { min: number; max: number } {
  const min =
    typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -1e6;
  const max =
    typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : 1e6;
  return { min: Math.max(min, -1e15), max: Math.min(max, 1e15) };
}

/** Values the schema accepts (as far as JSON Schema can say): examples, defaults, bounds, and generated ones. */
export function validValue(schema: JsonSchema, resolve: Resolve, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const stated: unknown[] = [...(Array.isArray(s.examples) ? s.examples : []), ...('default' in s ? [s.default] : [])];
  const generated = generatedValid(s, resolve, depth);
  return stated.length > 0
    ? fc.oneof({ arbitrary: fc.constantFrom(...stated), weight: 2 }, { arbitrary: generated, weight: 3 })
    : generated;
}

function generatedValid(s: JsonSchema, resolve: Resolve, depth: number): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((a) => validValue(a, resolve, depth + 1)));
  switch (s.type) {
    case 'string':
      return validString(s);
    case 'integer': {
      const { min, max } = numberBounds(s);
      const lo = Math.ceil(min);
      const hi = Math.floor(max);
      return fc.oneof(fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31 - 1) }), fc.constantFrom(lo, hi));
    }
    case 'number': {
      const { min, max } = numberBounds(s);
      return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max, (min + max) / 2));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : 4, minLength + 3));
      if (depth >= depthLimit) return fc.constant([]);
      return fc.array(validValue((s.items ?? {}) as JsonSchema, resolve, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = (s.required ?? []) as string[];
      // `{}` members (anything goes) are left out of valid bodies: they are the read-only members
      // a client may echo, which the schema types only on output.
      const members = Object.fromEntries(
        Object.entries(props)
          .filter(([, p]) => Object.keys(p).length > 0)
          .map(([k, p]) => [k, validValue(p, resolve, depth + 1)]),
      );
      return fc.record(members, { requiredKeys: required.filter((k) => k in members) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validString(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : undefined;
  const fits = (v: string) => v.length >= minLength && (maxLength === undefined || v.length <= maxLength);
  if (s.format === 'uuid')
    return fc.oneof(
      fc.uuid(),
      fc.uuid().map((u) => u.toUpperCase()),
    );
  if (s.format === 'date-time') {
    return fc
      .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).filter(fits);
  const boundaries = [minLength, ...(maxLength !== undefined && maxLength <= 100_000 ? [maxLength] : [])].map((n) => 'x'.repeat(n));
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength ?? 40, minLength + 40), unit: 'grapheme' }), weight: 4 },
    { arbitrary: fc.constantFrom(...boundaries), weight: 1 },
    // a free-text member may have to name something that exists (an application, a resource)
    { arbitrary: fc.nat(50).map(knownToken), weight: 2 },
  );
}

/**
 * Strings of any code points, lone surrogates included. One arbitrary for every parameter: fast-check
 * maps all 1.1 million code points when one is made (most of a second), and an arbitrary is immutable.
 */
const BINARY_STRINGS = fc.string({ maxLength: 30, unit: 'binary' });

/**
 * Values the schema should refuse, or that stress what lies behind a schema that accepts them:
 * wrong types, bad strings, huge numbers, a required member missing, an unknown member, one
 * member or item made invalid, too many or too few items, strings past their bounds.
 */
export function invalidValue(schema: JsonSchema, resolve: Resolve, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const generic = fc.oneof(fc.constantFrom(...WRONG_TYPES), fc.constantFrom(...BAD_STRINGS), fc.constantFrom(...HUGE_NUMBERS));
  if (depth >= depthLimit) return generic;
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(generic, ...alternatives.map((a) => invalidValue(a, resolve, depth + 1)));
  switch (s.type) {
    case 'object':
      return fc.oneof({ arbitrary: generic, weight: 1 }, { arbitrary: invalidObject(s, resolve, depth), weight: 6 });
    case 'array':
      return fc.oneof({ arbitrary: generic, weight: 1 }, { arbitrary: invalidArray(s, resolve, depth), weight: 4 });
    case 'string': {
      const near: string[] = [];
      if (typeof s.maxLength === 'number' && s.maxLength < 200_000) near.push('x'.repeat(s.maxLength + 1));
      if (typeof s.minLength === 'number' && s.minLength > 0) near.push('x'.repeat(s.minLength - 1));
      return fc.oneof(
        generic,
        BINARY_STRINGS,
        ...(near.length ? [fc.constantFrom(...near)] : []),
        validValue(s, resolve, depth).map((v) => `${String(v)}\u0000`),
      );
    }
    case 'integer':
    case 'number': {
      const { min, max } = numberBounds(s);
      return fc.oneof(generic, fc.constantFrom(min - 1, max + 1, min - 0.5, max + 0.5), fc.double());
    }
    default:
      return generic;
  }
}

function invalidObject(s: JsonSchema, resolve: Resolve, depth: number): fc.Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = ((s.required ?? []) as string[]).filter((k) => k in props);
  const valid = validValue(s, resolve, depth) as fc.Arbitrary<Record<string, unknown>>;
  const ways: fc.Arbitrary<unknown>[] = [
    // an unknown member, with a bad name or a bad value
    fc
      .tuple(
        valid,
        fc.oneof(fc.constantFrom('extra', '__proto__', 'constructor', '\u0000', '\ud800', ''), fc.string()),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .map(([v, k, x]) => ({ ...v, [k]: x })),
  ];
  if (required.length > 0) {
    ways.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([name]) => name !== k))),
    );
  }
  const names = Object.keys(props);
  if (names.length > 0) {
    ways.push(
      fc
        .constantFrom(...names)
        .chain((k) => fc.tuple(fc.constant(k), valid, invalidValue(props[k]!, resolve, depth + 1)))
        .map(([k, v, bad]) => ({ ...v, [k]: bad })),
    );
  }
  return fc.oneof(...ways);
}

function invalidArray(s: JsonSchema, resolve: Resolve, depth: number): fc.Arbitrary<unknown> {
  const items = (s.items ?? {}) as JsonSchema;
  const item = validValue(items, resolve, depth + 1);
  const ways: fc.Arbitrary<unknown>[] = [
    fc.tuple(fc.array(item, { maxLength: 3 }), invalidValue(items, resolve, depth + 1)).map(([v, bad]) => [...v, bad]),
  ];
  if (typeof s.maxItems === 'number' && s.maxItems < 5000) {
    const n = s.maxItems + 1;
    ways.push(item.map((v) => Array.from({ length: n }, () => v)));
  }
  if (typeof s.minItems === 'number' && s.minItems > 0) {
    ways.push(fc.array(item, { maxLength: s.minItems - 1 }));
  }
  return fc.oneof(...ways);
}
