/**
 * An insight asset as its tooltip on the map names it. Its description is the tags of the
 * Feature it was made from, string values by name (docs/interface.md §5): shown as words, as a
 * farm-management user reads them, not as the JSON they travel in. No DOM here, so it is tested in
 * Node.
 */

/** What of an asset its label reads. */
export interface AssetNaming {
  id: string;
  description: Record<string, string> | string | null;
}

/** "Asset 50f04984 · crop: corn, farm: Ames North"; the start of the id alone without tags. */
export function assetLabel(asset: AssetNaming): string {
  const name = `Asset ${asset.id.split('-')[0] ?? asset.id}`;
  const { description } = asset;
  const tags =
    typeof description === 'string'
      ? description
      : Object.entries(description ?? {})
          .map(([key, value]) => `${key}: ${value}`)
          .join(', ');
  return tags === '' ? name : `${name} · ${tags}`;
}
