/**
 * Coefficients of the monthly precipitation climate on the terms of geoclimate.ts
 * `precipitationFeatures` (docs/decisions/0083-precipitation-climate.md).
 *
 * Written by packages/weather/scripts/fit-precipitation.ts (do not edit by hand): least squares
 * on the published normals of 22 places (test/precipitation-normals-data.ts).
 */
export const PRECIPITATION_MEAN = {
  base: 4.813,
  moisture: -0.787,
  desert: -1.112,
  itcz: 2.681,
  stormTrack: 0.387,
  eastCoast: 1.73,
  interior: -0.48,
  monsoon: 1.128,
  windward: 0.812,
};

export const PRECIPITATION_SEASON = {
  base: -0.147,
  monsoon: 1.164,
  convection: 2.579,
  westCoastWinter: -0.416,
  mediterranean: -0.165,
  range: -0.594,
  tropicalMargin: 1.326,
  windwardMonsoon: 8.073,
};

export type PrecipitationMeanTerms = typeof PRECIPITATION_MEAN;
export type PrecipitationSeasonTerms = typeof PRECIPITATION_SEASON;
