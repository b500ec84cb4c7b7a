import { squareCellSide } from '../src/domain/synced-products.js';

// A synced store's spacings are computed from its coordinates, written to the micro-degree
// (packages/sync run stores): equal spacings may differ in their last bits, and a source whose
// cells are square must still get its transfer products (docs/decisions/0340-synced-transfer-products.md).
describe('squareCellSide', () => {
  const spacing = (first: number, n: number, d: number) => {
    const last = Number((first + (n - 1) * d).toFixed(6));
    return (last - Number(first.toFixed(6))) / (n - 1);
  };

  it('takes spacings equal but for their last bits as square cells', () => {
    const dLat = spacing(-89.95, 1800, 0.1);
    const dLon = spacing(-179.95, 3600, 0.1);
    expect(dLat).not.toBe(dLon); // what the coordinates give
    expect(squareCellSide({ dLat, dLon })).toBe(dLat);
    expect(squareCellSide({ dLat: 0.25, dLon: 0.25 })).toBe(0.25);
  });

  it('refuses cells that are not square', () => {
    expect(squareCellSide({ dLat: 0.25, dLon: 0.5 })).toBeNull();
    expect(squareCellSide({ dLat: 0.1, dLon: 0.1000001 })).toBeNull();
  });
});
