import { areaOf, bboxRing, centroidOf, rightHandRings, signedRingArea } from '../src/index.js';

/** RFC 7946 Appendix A.3, "With holes": the exterior ring counter-clockwise, the hole clockwise. */
const RFC_EXTERIOR = [
  [100, 0],
  [101, 0],
  [101, 1],
  [100, 1],
  [100, 0],
];
const RFC_HOLE = [
  [100.8, 0.8],
  [100.8, 0.2],
  [100.2, 0.2],
  [100.2, 0.8],
  [100.8, 0.8],
];
const reversed = (ring: number[][]) => [...ring].reverse();

describe('signedRingArea: the shoelace in [lon, lat]', () => {
  it('is positive counter-clockwise, negative clockwise, 0 for a ring without area', () => {
    expect(signedRingArea(RFC_EXTERIOR)).toBeCloseTo(2, 12); // twice the 1 x 1 degree square
    expect(signedRingArea(RFC_HOLE)).toBeCloseTo(-2 * 0.36, 12);
    expect(signedRingArea(bboxRing(-93.5, 42, -93.488, 42.009))).toBeGreaterThan(0);
    expect(
      signedRingArea([
        [0, 0],
        [1, 1],
        [2, 2],
        [0, 0],
      ]),
    ).toBe(0);
  });
});

describe('rightHandRings: RFC 7946 section 3.1.6', () => {
  it('keeps the RFC example, which follows the right-hand rule, as the same array', () => {
    const polygon = [RFC_EXTERIOR, RFC_HOLE];
    expect(rightHandRings(polygon)).toBe(polygon);
  });

  it('reverses a clockwise exterior ring and a counter-clockwise hole, keeping their first positions', () => {
    const sent = [reversed(RFC_EXTERIOR), reversed(RFC_HOLE)];
    const before = JSON.stringify(sent);
    // Reversed back, the RFC's own rings: the first positions are the ones sent.
    expect(rightHandRings(sent)).toEqual([RFC_EXTERIOR, RFC_HOLE]);
    expect(rightHandRings(sent)[0]![0]).toEqual(sent[0]![0]);
    expect(JSON.stringify(sent)).toBe(before); // the input is not changed
  });

  it('turns only the ring that is the wrong way round', () => {
    const sent = [RFC_EXTERIOR, reversed(RFC_HOLE)];
    const out = rightHandRings(sent);
    expect(out[0]).toBe(RFC_EXTERIOR);
    expect(out[1]).toEqual(RFC_HOLE);
  });

  it('leaves the area and the centroid as they were: both are of the positions, not their order', () => {
    const sent = [reversed(RFC_EXTERIOR), reversed(RFC_HOLE)];
    expect(areaOf([rightHandRings(sent)])).toBeCloseTo(areaOf([sent]), 6);
    expect(centroidOf([rightHandRings(sent)])).toEqual(centroidOf([sent]));
  });
});

describe('centroidOf: a position repeated in a row is one vertex', () => {
  // RFC 7946 and OGC Simple Features accept a ring that repeats a position in a row (a GPS stop,
  // a digitiser's double click); it is the same ring, so the same field or asset, and its centroid
  // (the point its degree days, chill and series are read at) must not move.
  const square = [
    [-93.7, 42],
    [-93.6, 42],
    [-93.6, 42.1],
    [-93.7, 42.1],
    [-93.7, 42],
  ];
  const at = (ring: number[][], i: number) => [...ring.slice(0, i + 1), ring[i]!, ...ring.slice(i + 1)];

  it('gives the ring sent with a repeated vertex the centroid of the ring without it', () => {
    const plain = centroidOf([[square]]);
    expect(plain).toEqual({ latitude: 42.05, longitude: -93.65 });
    expect(centroidOf([[at(square, 1)]])).toEqual(plain);
    expect(centroidOf([[at(square, 0)]])).toEqual(plain); // the first position twice
    expect(centroidOf([[at(square, 4)]])).toEqual(plain); // the closing position twice
    expect(centroidOf([[at(at(square, 2), 2)]])).toEqual(plain); // three in a row
  });

  it('counts a repeated vertex of a hole once too', () => {
    expect(centroidOf([[RFC_EXTERIOR, at(RFC_HOLE, 2)]])).toEqual(centroidOf([[RFC_EXTERIOR, RFC_HOLE]]));
  });

  it('still counts a position that comes back later in the ring, which is another vertex of it', () => {
    // a ring through one position twice, not in a row, is a vertex visited twice (an OGC touch)
    const bowl = [
      [0, 0],
      [2, 0],
      [1, 1],
      [2, 2],
      [0, 2],
      [1, 1],
      [0, 0],
    ];
    const mean = (k: 0 | 1) => bowl.slice(0, 6).reduce((s, p) => s + p[k]!, 0) / 6;
    expect(centroidOf([[bowl]])).toEqual({ latitude: mean(1), longitude: mean(0) });
  });
});
