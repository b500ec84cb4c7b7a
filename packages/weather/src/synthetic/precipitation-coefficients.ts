/**
 * Coefficients of the monthly precipitation climate on the terms of geoclimate.ts
 * `precipitationFeatures` (docs/decisions/0083-precipitation-climate.md).
 *
 * Written by packages/weather/scripts/fit-precipitation.ts (do not edit by hand): least squares
 * on the published normals of 22 places (test/precipitation-normals-data.ts).
 */
export const PRECIPITATION_MEAN = {
  base: 6.209,
  moisture: -0.886,
  desert: -4.027,
  itcz: 1.571,
  stormTrack: -1.125,
  eastCoast: 7.756,
  interior: -1.226,
  monsoon: 0.23,
  windward: -0.168,
  westerlyWindward: 1.472,
  rainShadow: -1.07,
};

export const PRECIPITATION_SEASON = {
  base: -0.122,
  monsoon: 0.358,
  convection: 2.668,
  westCoastWinter: -0.541,
  mediterranean: 0.079,
  range: -0.618,
  tropicalMargin: 1.454,
  itczMigration: 1.07,
  windwardMonsoon: 8.042,
};

export type PrecipitationMeanTerms = typeof PRECIPITATION_MEAN;
export type PrecipitationSeasonTerms = typeof PRECIPITATION_SEASON;
