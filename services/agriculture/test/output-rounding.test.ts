import { signedRingArea } from '@fieldcast/geo';
import { outputPolygons } from '../src/domain/output-rounding.js';

describe('outputPolygons: positions as the contours report them', () => {
  const field = [
    [
      [5.01234567, 45.00098765],
      [5.04321234, 45.00098765],
      [5.04321234, 45.0301],
      [5.01234567, 45.0301],
      [5.01234567, 45.00098765],
    ],
  ];

  it("takes the field's own values where a position is within half a unit of the 6th decimal, rounds the rest to 6 decimals", () => {
    const piece = [
      [
        [5.012345670000001, 45.000987649999996],
        [5.02000000000001, 45.00098765000002],
        [5.0200004, 45.0123456789],
        [5.01234567, 45.030099999999996],
        [5.012345670000001, 45.000987649999996],
      ],
    ];
    expect(outputPolygons([piece], [field])).toEqual([
      [
        [
          [5.01234567, 45.00098765],
          [5.02, 45.00098765],
          [5.02, 45.012346],
          [5.01234567, 45.0301],
          [5.01234567, 45.00098765],
        ],
      ],
    ]);
  });

  it('drops positions that round onto the one before, and keeps the ring closed', () => {
    const piece = [
      [
        [1.0000001, 1],
        [2, 1],
        [2.0000001, 1.0000002],
        [2, 2],
        [1, 2],
        [1.0000002, 0.9999999],
      ],
    ];
    expect(outputPolygons([piece], [])).toEqual([
      [
        [
          [1, 1],
          [2, 1],
          [2, 2],
          [1, 2],
          [1, 1],
        ],
      ],
    ]);
  });

  it('drops a ring that rounding flattens, and a polygon whose exterior it flattens', () => {
    const square = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ];
    const sliverHole = [
      [0.5, 0.5],
      [0.5000001, 0.7],
      [0.5000002, 0.5],
      [0.5, 0.5],
    ];
    const sliver = [
      [
        [3, 3],
        [4, 3.0000001],
        [5, 3],
        [3, 3],
      ],
    ];
    const tiny = [
      [
        [7, 7],
        [7.0000001, 7],
        [7.0000001, 7.0000001],
        [7, 7],
      ],
    ];
    expect(outputPolygons([[square, sliverHole], sliver, tiny], [])).toEqual([[square]]);
  });

  it('keeps the right-hand rule (RFC 7946 section 3.1.6) whatever rounding does to the order', () => {
    const hole = [
      [0.2, 0.2],
      [0.2, 0.8],
      [0.8, 0.8],
      [0.8, 0.2],
      [0.2, 0.2],
    ];
    const clockwise = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
      [0, 0],
    ];
    const [polygon] = outputPolygons([[clockwise, [...hole].reverse()]], []);
    expect(signedRingArea(polygon![0]!)).toBeGreaterThan(0);
    expect(signedRingArea(polygon![1]!)).toBeLessThan(0);
  });
});
