/**
 * Coefficients of the coldest-month and warmest-month mean temperatures at sea level, degC, on
 * the geographic terms of geoclimate.ts `regressionTerms` (docs/architecture.md §6,
 * docs/decisions/0080-geographic-temperature-climate.md).
 *
 * Written by packages/weather/scripts/fit-geoclimate.ts (do not edit by hand): a least-squares
 * fit to published station normals (36 stations) and the July and December means of 2317 land and open-sea parts of 5 degree cells; the same numbers serve every place on Earth.
 */
export const COLDEST = {
  base: 23.417,
  sinLat: 9.119,
  sin2Lat: -54.006,
  exposure: -24.765,
  poleward: -6.262,
  warmDrift: 18.307,
  coldCurrent: -16.851,
  subtropicalLand: 13.217,
  plateau: 3.867,
  inland: -2.15,
  shelter: -13.069,
  foehn: 8.883,
  maritime: 12.976,
  landSurface: 5.626,
  iceSheet: 6.256,
};

export const WARMEST: typeof COLDEST = {
  base: 31.273,
  sinLat: -2.074,
  sin2Lat: -27.109,
  exposure: -3.465,
  poleward: 9.129,
  warmDrift: 1.67,
  coldCurrent: -18.964,
  subtropicalLand: 5.145,
  plateau: 2.689,
  inland: -0.899,
  shelter: 0.477,
  foehn: 0.284,
  maritime: 1.208,
  landSurface: 5.864,
  iceSheet: -17.877,
};

export type Coefficients = typeof COLDEST;
