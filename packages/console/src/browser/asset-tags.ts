/**
 * An insight asset's tags as the console edits them, and the body that saves an edit. Its tags
 * are the properties of the Feature it was made from, string to string (docs/interface.md §5):
 * edited as a farm-management user writes them, one `name: value` a line. No DOM here, so it is
 * tested in Node.
 */
import type { AssetNaming } from './asset-label.js';
import type { PolygonRings } from './shape-edit.js';

/** An insight asset as the area serves it (docs/interface.md §5): one Polygon, as a MultiPolygon holding it. */
export interface Asset extends AssetNaming {
  type: 'GeometryCollection';
  geometries: { type: 'MultiPolygon'; coordinates: number[][][][] }[];
}

/** What one save changes: the tags, the polygon, or both. */
export interface AssetChange {
  tags?: Record<string, string>;
  polygon?: PolygonRings;
}

/** The separator of a tag's name and value: a value may hold commas and colons, a name no ": ". */
const SEPARATOR = ': ';

/** A tag's line: the name up to the first colon followed by a space or the line's end, then the value. */
const TAG_LINE = /^(.*?):(?:\s+(.*))?$/;

/** The tags, a line each; a description given as text as it is. */
export function tagsText(description: AssetNaming['description']): string {
  if (typeof description === 'string') return description;
  return Object.entries(description ?? {})
    .map(([name, value]) => `${name}${SEPARATOR}${value}`)
    .join('\n');
}

/** The tags the lines write, names and values trimmed and empty lines skipped; or what is wrong with them. */
export function parseTags(text: string): { tags: Record<string, string> } | { fault: string } {
  const tags: Record<string, string> = {};
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    const match = TAG_LINE.exec(line.trim());
    const name = match?.[1]?.trim() ?? '';
    if (name === '') return { fault: `Line ${index + 1} is not a tag: write it as name${SEPARATOR}value` };
    if (Object.hasOwn(tags, name)) return { fault: `The tag ${name} is given twice` };
    tags[name] = match?.[2]?.trim() ?? '';
  }
  return { tags };
}

/** The asset's PUT body (docs/interface.md §5, Asset in): the asset as it is, with the change made. */
export function assetReplacement(
  asset: Asset,
  change: AssetChange,
): {
  type: 'FeatureCollection';
  features: [{ type: 'Feature'; geometry: { type: 'Polygon'; coordinates: PolygonRings }; properties: Record<string, string> }];
} {
  const polygon = change.polygon ?? (asset.geometries[0]?.coordinates[0] as PolygonRings | undefined) ?? [];
  const properties = change.tags ?? (typeof asset.description === 'string' ? {} : (asset.description ?? {}));
  return { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: polygon }, properties }] };
}
