import { faultPlace } from '../src/browser/fault-place.js';

// A refused field is drawn with each fault at the place it is about (docs/areas.md, Console):
// the agriculture area names the point of a crossing or touch in its message ("ring 0 crosses
// itself at [lon, lat]", packages/geo polygon checks) and the position of a bad one in its path.
const BOWTIE = [
  [
    [-98.5, 38.8],
    [-98.1, 38.4],
    [-98.1, 38.8],
    [-98.5, 38.4],
    [-98.5, 38.8],
  ],
] as [number, number][][];

describe('where a refused field shows a fault', () => {
  it('at the point the message names where the ring crosses itself, not at its first corner', () => {
    const fault = { path: 'geometries.0.coordinates.0', message: 'ring 0 crosses itself at [-98.3, 38.6]' };
    expect(faultPlace(fault, [BOWTIE])).toEqual([-98.3, 38.6]);
  });

  it('at the point a message names with "near"', () => {
    const fault = { path: 'geometries.0.coordinates.0', message: 'ring 0 runs along itself near [-98.25, 38.5]' };
    expect(faultPlace(fault, [BOWTIE])).toEqual([-98.25, 38.5]);
  });

  it('at the position its path names when the message names no point', () => {
    const fault = { path: 'geometries.0.coordinates.0.2', message: 'a position is [longitude, latitude]' };
    expect(faultPlace(fault, [BOWTIE])).toEqual([-98.1, 38.8]);
  });

  it("at the ring's first position when neither names a point", () => {
    const fault = { path: 'geometries.0.coordinates.0', message: 'a linear ring must enclose an area' };
    expect(faultPlace(fault, [BOWTIE])).toEqual([-98.5, 38.8]);
  });

  it('nowhere for a fault about no ring drawn', () => {
    expect(faultPlace({ path: 'description', message: 'description is too long' }, [BOWTIE])).toBeNull();
    expect(faultPlace({ path: 'geometries.3.coordinates.0', message: 'ring 0 crosses itself at [1, 2]' }, [BOWTIE])).toBeNull();
  });
});
