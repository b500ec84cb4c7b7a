import { trackMeetsBox } from '../src/track-in-box.js';

const BOX = { south: 0, north: 1, west: 0, east: 1 };

describe('a track meets a box where any part of its line does, not only a vertex', () => {
  it('a segment crossing the box between two vertices outside it', () => {
    expect(
      trackMeetsBox(
        [
          [-1, 0.5],
          [2, 0.5],
        ],
        BOX,
      ),
    ).toBe(true);
    // diagonally across a corner, both ends outside
    expect(
      trackMeetsBox(
        [
          [-0.2, 0.7],
          [0.6, 1.5],
        ],
        BOX,
      ),
    ).toBe(true);
  });

  it('a vertex inside, a vertex on an edge (the box is closed, as a region is), and a track of one point', () => {
    expect(
      trackMeetsBox(
        [
          [0.5, 0.5],
          [3, 3],
        ],
        BOX,
      ),
    ).toBe(true);
    expect(
      trackMeetsBox(
        [
          [1, 2],
          [1, 1],
        ],
        BOX,
      ),
    ).toBe(true);
    expect(trackMeetsBox([[0.2, 0.2]], BOX)).toBe(true);
  });

  it('misses: beside the box, and passing a corner outside', () => {
    expect(
      trackMeetsBox(
        [
          [-1, 2],
          [2, 2],
        ],
        BOX,
      ),
    ).toBe(false);
    expect(
      trackMeetsBox(
        [
          [-0.5, 0.6],
          [0.4, 1.6],
        ],
        BOX,
      ),
    ).toBe(false);
    expect(trackMeetsBox([[1.5, 0.5]], BOX)).toBe(false);
  });

  it('a segment across the antimeridian is the short way round', () => {
    const east = { south: 0, north: 1, west: 179.5, east: 180 };
    const west = { south: 0, north: 1, west: -180, east: -179.5 };
    const across: [number, number][] = [
      [179.2, 0.5],
      [-179.2, 0.5],
    ];
    expect(trackMeetsBox(across, east)).toBe(true);
    expect(trackMeetsBox(across, west)).toBe(true);
    // the long way round would cross the box at the prime meridian
    expect(trackMeetsBox(across, { south: 0, north: 1, west: -1, east: 1 })).toBe(false);
  });
});
