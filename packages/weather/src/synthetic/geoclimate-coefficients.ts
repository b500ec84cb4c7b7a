/**
 * Coefficients of the coldest-month and warmest-month mean temperatures at sea level, degC, on
 * the geographic terms of geoclimate.ts `regressionTerms` (docs/architecture.md §6,
 * docs/decisions/0080-geographic-temperature-climate.md).
 *
 * Written by packages/weather/scripts/fit-geoclimate.ts (do not edit by hand): a least-squares
 * fit to published station normals (22 stations) and the July and December means of 2317 land and open-sea parts of 5 degree cells; the same numbers serve every place on Earth.
 */
export const COLDEST = {
  base: 23.664,
  sinLat: 17.732,
  sin2Lat: -67.682,
  exposure: -18.904,
  poleward: 0.466,
  warmDrift: 25.971,
  coldCurrent: -19.856,
  subtropicalLand: 10.398,
  plateau: 4.595,
  inland: -7.103,
  shelter: -15.597,
  foehn: 8.366,
  maritime: 15.84,
  landSurface: 0.452,
};

export const WARMEST: typeof COLDEST = {
  base: 30.362,
  sinLat: 6.983,
  sin2Lat: -38.06,
  exposure: -7.378,
  poleward: 11.103,
  warmDrift: 6.808,
  coldCurrent: -15.271,
  subtropicalLand: 5.715,
  plateau: 1.587,
  inland: 0.156,
  shelter: -0.003,
  foehn: 4.248,
  maritime: 1.958,
  landSurface: 3.996,
};

export type Coefficients = typeof COLDEST;
