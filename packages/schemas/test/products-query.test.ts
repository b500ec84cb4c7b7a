// The coverage filter of GET /products (spec 4.6) is read once per text: a map client repeats
// the area it shows, and checking its polygon is most of a products request's cost.
import { ProductsQuery } from '../src/index.js';

const square = (w: number, s: number) =>
  JSON.stringify({
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [w + 1, s],
        [w + 1, s + 1],
        [w, s + 1],
        [w, s],
      ],
    ],
  });

describe('ProductsQuery coverage', () => {
  it('gives the coverage read before for a text seen lately, and reads it anew once forgotten', () => {
    const text = square(-94, 41);
    const first = ProductsQuery.parse({ coverage: text }).coverage;
    expect(first).toEqual({ points: [], lines: [], polygons: [JSON.parse(text).coordinates] });
    expect(ProductsQuery.parse({ coverage: text }).coverage).toBe(first);
    // 256 other areas later the first is forgotten: read again, to the same value
    for (let i = 0; i < 256; i++) ProductsQuery.parse({ coverage: square(-170 + i, -80) });
    const again = ProductsQuery.parse({ coverage: text }).coverage;
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('refuses a bad coverage every time it is given, naming the fault', () => {
    const crossing = JSON.stringify({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    });
    for (let i = 0; i < 2; i++) {
      const r = ProductsQuery.safeParse({ coverage: crossing });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual(['coverage']);
      expect(r.error!.issues[0]!.message).toMatch(/^coverage must be .*polygon 0: /);
    }
  });
});
