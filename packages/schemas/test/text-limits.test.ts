/**
 * Every text limit of a request counts characters, Unicode code points, as its message says: the
 * count of JSON Schema's maxLength (draft 2020-12 validation section 6.3.1, characters as RFC 8259
 * defines them), which the OpenAPI documents publish, and of PostgreSQL's char_length. A character
 * outside the Basic Multilingual Plane (an emoji, a CJK extension B ideograph) is two UTF-16 code
 * units and one character: N of them are accepted where the limit is N
 * (docs/decisions/0485-limits-count-characters-and-thresholds-are-earthly.md).
 */
import { z } from 'zod';
import { AMES_SQUARE, AssetInput, EventInput, FieldInput, ObservationSetInput, StyleInput, SubscriptionInput } from '../src/index.js';

/** Astral characters, each a surrogate pair: an emoji and a CJK Unified Ideographs Extension B ideograph. */
const ASTRAL = ['\u{1F33D}', '\u{2070E}'];
const astral = (n: number) => Array.from({ length: n }, (_, i) => ASTRAL[i % 2]).join('');

const site = (id: string) => ({
  id,
  latitude: 42,
  longitude: -93.6,
  elevation: 300,
  observations: [{ time: '2026-05-01T12:00:00Z', variables: [{ name: 'temperature', unit: 'celsius', value: 1 }] }],
});
const asset = (tags: Record<string, string>) => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [AMES_SQUARE] }, properties: tags }],
});
const style = (member: Record<string, string>) => ({
  name: 'Corn heat',
  layerName: 'temperature',
  colorizers: [{ defaultColor: '#000000', defaultMode: 'linear', stops: [{ value: 0, color: '#ffffff' }] }],
  ...member,
});
const field = (description: string) => ({
  description,
  type: 'GeometryCollection',
  geometries: [{ type: 'Polygon', coordinates: [AMES_SQUARE] }],
});

/** Each limited text member: its schema, a body with `text` in it, the path of a fault there, the limit. */
const LIMITS: [string, z.ZodType, (text: string) => unknown, (text: string) => string, number][] = [
  ['an observation site id', ObservationSetInput, (t) => ({ sites: [site(t)] }), () => 'sites.0.id', 256],
  ['an observation tag name', ObservationSetInput, (t) => ({ sites: [site('a')], tags: { [t]: 'v' } }), (t) => `tags.${t}`, 64],
  ['an observation tag value', ObservationSetInput, (t) => ({ sites: [site('a')], tags: { a: t } }), () => 'tags.a', 256],
  ['a field description', FieldInput, field, () => 'description', 10_000],
  ['an asset tag key', AssetInput, (t) => asset({ [t]: 'v' }), (t) => `features.0.properties.${t}`, 1000],
  ['an asset tag value', AssetInput, (t) => asset({ crop: t }), () => 'features.0.properties.crop', 1000],
  ['a style name', StyleInput, (t) => style({ name: t }), () => 'name', 100],
  ['a style description', StyleInput, (t) => style({ description: t }), () => 'description', 10_000],
  ['an event app', EventInput, (t) => ({ app: t, namespace: 'farm/notes', message: 'm' }), () => 'app', 63],
  ['an event message', EventInput, (t) => ({ app: 'farm', namespace: 'farm/notes', message: t }), () => 'message', 1000],
  [
    'a subscription description',
    SubscriptionInput,
    (t) => ({ url: 'https://hooks.example.com/', description: t }),
    () => 'description',
    1000,
  ],
  // the URL's own 8 characters and N - 8 astral ones
  ['a subscription URL', SubscriptionInput, (t) => ({ url: `https://${Array.from(t).slice(8).join('')}` }), () => 'url', 2000],
];

describe('text limits count characters (Unicode code points), not UTF-16 code units', () => {
  it.each(LIMITS)('%s: N astral characters are accepted, N + 1 refused at the member', (_name, schema, body, path, n) => {
    expect(schema.safeParse(body(astral(n))).error?.issues).toBeUndefined();
    const over = astral(n + 1);
    const refused = schema.safeParse(body(over));
    expect(refused.error?.issues.map((i) => i.path.join('.'))).toEqual([path(over)]);
  });

  it('the OpenAPI document states the same limit as maxLength, which JSON Schema counts in characters', () => {
    const json = z.toJSONSchema(FieldInput, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
    expect(json.$defs?.FieldInput?.properties?.description).toMatchObject({ maxLength: 10_000 });
  });
});
