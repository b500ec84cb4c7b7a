import { assetLabel } from '../src/browser/asset-label.js';

// An insight asset's tooltip on the map (docs/areas.md, Console): its tags (docs/interface.md §5,
// the Feature's string properties) as words, not as JSON.
describe("an asset's label on the map", () => {
  const id = '50f04984-1719-4943-8778-246370814141';

  it('names the asset by the start of its id and lists its tags', () => {
    expect(assetLabel({ id, description: { crop: 'corn', farm: 'Ames North' } })).toBe('Asset 50f04984 · crop: corn, farm: Ames North');
  });

  it('shows the start of the id alone for an asset without tags', () => {
    expect(assetLabel({ id, description: {} })).toBe('Asset 50f04984');
    expect(assetLabel({ id, description: null })).toBe('Asset 50f04984');
    expect(assetLabel({ id, description: '' })).toBe('Asset 50f04984');
  });

  it('shows a description given as text as it is', () => {
    expect(assetLabel({ id, description: 'Pivot 3' })).toBe('Asset 50f04984 · Pivot 3');
  });
});
