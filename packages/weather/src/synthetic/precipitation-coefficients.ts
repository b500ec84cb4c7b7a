/**
 * Coefficients of the monthly precipitation climate on the terms of geoclimate.ts
 * `precipitationFeatures` (docs/decisions/0083-precipitation-climate.md).
 *
 * Written by packages/weather/scripts/fit-precipitation.ts (do not edit by hand): least squares
 * on the published normals of 22 places (test/precipitation-normals-data.ts).
 */
export const PRECIPITATION_MEAN = {
  base: 4.917,
  moisture: -0.883,
  desert: -0.849,
  itcz: 2.867,
  stormTrack: 0.45,
  eastCoast: 2.014,
  interior: -0.567,
  monsoon: 1.283,
  windward: 0.669,
};

export const PRECIPITATION_SEASON = {
  base: -0.153,
  monsoon: 1.215,
  convection: 2.65,
  westCoastWinter: -0.359,
  mediterranean: -0.108,
  range: -0.628,
  tropicalMargin: 1.338,
  windwardMonsoon: 7.905,
};

export type PrecipitationMeanTerms = typeof PRECIPITATION_MEAN;
export type PrecipitationSeasonTerms = typeof PRECIPITATION_SEASON;
