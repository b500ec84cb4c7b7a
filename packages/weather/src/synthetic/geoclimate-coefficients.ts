/**
 * Coefficients of the coldest-month and warmest-month mean temperatures at sea level, degC, on
 * the geographic terms of geoclimate.ts `regressionTerms` (docs/architecture.md §6,
 * docs/decisions/0080-geographic-temperature-climate.md).
 *
 * Written by packages/weather/scripts/fit-geoclimate.ts (do not edit by hand): a least-squares
 * fit to published station normals (36 stations) and the July and December means of 2317 land and open-sea parts of 5 degree cells; the same numbers serve every place on Earth.
 */
export const COLDEST = {
  base: 23.541,
  sinLat: 12.872,
  sin2Lat: -51.84,
  exposure: -23.882,
  poleward: 16.079,
  warmDrift: 19.037,
  coldCurrent: -17.193,
  subtropicalLand: 13.117,
  plateau: 3.908,
  inland: -4.649,
  shelter: -13.181,
  foehn: 8.591,
  maritime: 13.002,
  landSurface: -1.007,
  iceSheet: 4.549,
  coldAirOutbreak: -18.906,
};

export const WARMEST: typeof COLDEST = {
  base: 31.213,
  sinLat: -2.939,
  sin2Lat: -27.554,
  exposure: -3.728,
  poleward: 3.846,
  warmDrift: 1.457,
  coldCurrent: -18.81,
  subtropicalLand: 5.2,
  plateau: 2.664,
  inland: -0.321,
  shelter: 0.526,
  foehn: 0.38,
  maritime: 1.135,
  landSurface: 7.454,
  iceSheet: -17.464,
  coldAirOutbreak: 4.474,
};

export type Coefficients = typeof COLDEST;
