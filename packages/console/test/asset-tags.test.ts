import { assetReplacement, parseTags, tagsText } from '../src/browser/asset-tags.js';

// An insight asset's tags as the console edits them, one `name: value` a line, and the PUT that
// saves them (docs/interface.md §5: a FeatureCollection of one Polygon Feature, its properties the tags).
describe("an asset's tags in the edit box", () => {
  it('shows each tag on a line of its own, the name before the first ": "', () => {
    expect(tagsText({ farm: 'Ames North', crop: 'corn' })).toBe('farm: Ames North\ncrop: corn');
    expect(tagsText({})).toBe('');
    expect(tagsText(null)).toBe('');
  });

  it('reads the lines back as the tags they show, values with commas and colons too', () => {
    const tags = { farm: 'Smith, Jones & Sons', note: 'pivot: 3', 'a:b': 'c' };
    expect(parseTags(tagsText(tags))).toEqual({ tags });
    expect(parseTags('  name : North block \n\n crop: corn\r\n')).toEqual({ tags: { name: 'North block', crop: 'corn' } });
    expect(parseTags('')).toEqual({ tags: {} });
  });

  it('says which line is no tag, and which name is given twice', () => {
    expect(parseTags('name: North\njust words')).toEqual({ fault: 'Line 2 is not a tag: write it as name: value' });
    expect(parseTags(': no name')).toEqual({ fault: 'Line 1 is not a tag: write it as name: value' });
    expect(parseTags('crop: corn\ncrop: soy')).toEqual({ fault: 'The tag crop is given twice' });
  });
});

describe("an asset's PUT body", () => {
  const ring: [number, number][] = [
    [-93.7, 42.0],
    [-93.6, 42.0],
    [-93.6, 42.1],
    [-93.7, 42.0],
  ];
  const asset = {
    id: '50f04984-1719-4943-8778-246370814141',
    type: 'GeometryCollection' as const,
    geometries: [{ type: 'MultiPolygon' as const, coordinates: [[ring]] }],
    description: { farm: 'Ames North' },
  };

  it('is the asset as it is, with the new tags as the Feature’s properties', () => {
    expect(assetReplacement(asset, { tags: { farm: 'Ames South', crop: 'corn' } })).toEqual({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: { farm: 'Ames South', crop: 'corn' } }],
    });
  });

  it('carries a new shape in place of the old, keeping the tags', () => {
    const moved = ring.map(([lon, lat]): [number, number] => [lon + 1, lat]);
    expect(assetReplacement(asset, { polygon: [moved] }).features[0]).toEqual({
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [moved] },
      properties: { farm: 'Ames North' },
    });
  });
});
