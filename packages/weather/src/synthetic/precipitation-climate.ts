/**
 * Mean precipitation from a place's climate (the precipitation terms of geoclimate.ts CellClimate): the monthly climate
 * ln(P + 3) and its annual cycle, as mm a day (docs/decisions/0083-precipitation-climate.md).
 */
import { TROPICAL_YEAR_DAYS } from './climate.js';

/** Offset of the precipitation climate's logarithm, mm a month: L = ln(P + 3) keeps dry months finite. */
export const PRECIPITATION_LOG_OFFSET_MM = 3;

/**
 * The wettest month the climate gives anywhere, mm: the wettest annual normal on record
 * (Mawsynram, about 11,870 mm) spread over its months, and near the climatology's saturation
 * (1,024 mm, docs/data-sources.md). A fitted form can extrapolate past any climate on Earth where
 * no cell constrained it; the cap keeps a month, and so an hour's rate, within what the Earth
 * knows (docs/decisions/0083-precipitation-climate.md).
 */
export const WETTEST_MONTH_MM = 1000;

/** Mean precipitation, mm a day, of the climate at a cell and a time of year: (e^L - 3) / (days a month), at most WETTEST_MONTH_MM a month. */
export function precipitationClimateAt(
  c: { precipLog: ArrayLike<number>; precipCos: ArrayLike<number>; precipSin: ArrayLike<number> },
  k: number,
  cosAngle: number,
  sinAngle: number,
): number {
  const mm = Math.exp(c.precipLog[k]! + c.precipCos[k]! * cosAngle + c.precipSin[k]! * sinAngle) - PRECIPITATION_LOG_OFFSET_MM;
  return mm > 0 ? Math.min(mm, WETTEST_MONTH_MM) / DAYS_PER_MONTH : 0;
}

/** Days of a mean month. */
export const DAYS_PER_MONTH = TROPICAL_YEAR_DAYS / 12;
