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
