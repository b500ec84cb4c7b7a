/**
 * The climate of the synthetic world from Earth's geography (docs/architecture.md §6,
 * docs/decisions/0080-geographic-temperature-climate.md, 0083-precipitation-climate.md): for
 * every place, the annual mean temperature at sea level, the half-range of its annual cycle and
 * its lag behind the solstice, and the terms of its cloud and precipitation climate (read by
 * cloud-climate.ts and precipitation-climate.ts), from latitude and the land, sea, coast and
 * upwind land around it. One set of global parameters; no place has a correction of its own.
 *
 * The terms are evaluated at the nodes of a fixed 0.25 degree lattice (so a value never depends
 * on the shape of the request) and interpolated bilinearly to the cells; the lapse rate is then
 * applied to each cell's own altitude (temperature.ts).
 */
import { readFileSync } from 'node:fs';
import { earthGeography, GEOGRAPHY_FILE, type Geography } from '@fieldcast/geography';
import { type CellList, cellCount } from './cells.js';
import { LAPSE_RATE_K_PER_M, TROPICAL_YEAR_DAYS, yearAngle } from './climate.js';
import { ClimateLattice, climateCacheDir, NODE_DEG, NODE_FIELDS, nodeOffset } from './climate-lattice.js';
import { earthLatticeTable, forgetEarthLatticeTable } from './earth-lattice-table.js';
import { COLDEST, type TemperatureTerms, WARMEST } from './geoclimate-coefficients.js';
import { DAYS_PER_MONTH, precipitationClimateAt } from './precipitation-climate.js';
import {
  PRECIPITATION_MEAN,
  PRECIPITATION_SEASON,
  type PrecipitationMeanTerms,
  type PrecipitationSeasonTerms,
} from './precipitation-coefficients.js';

const DEG = Math.PI / 180;

/** Share of the year the surface wind blows from the west (westerlies 35-60 degrees), as the geography's continentality assumes. */
export function westerlyWeight(lat: number): number {
  const a = Math.abs(lat);
  return Math.min(Math.min(1, Math.max(0, (a - 25) / 10)), Math.min(1, Math.max(0, (70 - a) / 10)));
}

/** The geography around a place that sets its climate. */
export interface ClimateInputs {
  lat: number;
  /** land share of the cell, 0..1 */
  land: number;
  /** signed distance to the coast, km (positive on land) */
  coastKm: number;
  /** upwind land share over ~1,500 km (packages/geography continentality) */
  continentality: number;
  /** mean ground height within +-1.5 degrees, m (the mountain mass around the place) */
  plateau: number;
  /** highest ground within 4 degrees upwind, m */
  shelter: number;
  /** ground height of the place, m */
  elevation: number;
  /** land share along the latitude circle to the west and to the east, e-folding 3,000 km */
  landWest: number;
  landEast: number;
  /** land share poleward within ~30 degrees (where winter air masses form) */
  landPoleward: number;
  /** land share equatorward within 2-12 degrees (a sea there feeds a summer monsoon) */
  landEquatorward: number;
  /**
   * mean ground height 2-10 degrees poleward, +-6 degrees of longitude, m: an elevated heat
   * source there (the Tibetan plateau) draws the summer monsoon far inland
   */
  highlandPoleward: number;
  /** sea share within ~400 km (a disk of 3.5 degrees of latitude): how much of the air around is maritime */
  seaNear: number;
  /**
   * A windward slope, 0..1.5: high ground (km) within 2.5 degrees on one side with sea within 3
   * degrees on the other, the larger of the two ways round (moist air forced up: orographic rain)
   */
  windward: number;
  /** the westerlies' windward slope, 0..1.5: high ground within 2.5 degrees east with sea within 3 degrees west */
  westerlyWindward: number;
  /**
   * Sea share of the place's surroundings in each direction, 0..1 (SEA_FETCH_DIRECTIONS: west,
   * east, poleward, equatorward and the diagonals) at each reach in turn (SEA_FETCH_REACH_KM),
   * each a mean along a straight line out to 3,000 km weighted by exp(-distance / reach): what
   * the air arriving from that side has crossed, sea or land.
   */
  seaFetch: number[];
}

/** The e-folding reaches of the sea fetch, km: the sea next door and the sea a weather system away. */
const SEA_FETCH_REACH_KM = [400, 1500, 5000] as const;
const SEA_FETCH_STEP_KM = 150;
const SEA_FETCH_MAX_KM = 3000;

/** The lee of higher ground upwind, 0..1: (highest ground within 4 degrees upwind - ground here) / 1 km, on land. */
function leeOf(g: Pick<ClimateInputs, 'land' | 'shelter' | 'elevation'>): number {
  return g.land * Math.min(1, Math.max(0, g.shelter - g.elevation) / 1000);
}

/** Climate terms of a place: annual mean at sea level (degC), signed half-range (K; > 0 peaks in July), lag (days after the solstice). */
export interface ClimateTerms {
  mean: number;
  amplitude: number;
  lagDays: number;
  /** subtropical dryness, 0..1: subsidence with land upwind, or a cold current offshore (deserts) */
  dryness: number;
  /** summer monsoon strength, 0..1: tropical and subtropical land drawing moist air in its summer */
  monsoon: number;
  /**
   * Monthly precipitation climate (precipitationClimateAt): ln(P + 3) with P in mm a month is
   * precipLog + precipSeason cos(angle from mid-July) (precipSeason > 0: July is the wetter).
   */
  precipLog: number;
  precipSeason: number;
}

/** Mean height poleward, m, above which a highland starts to draw the monsoon inland, and the span to its full effect. */
const HIGHLAND_MONSOON_MIN_M = 1500;
const HIGHLAND_MONSOON_SPAN_M = 1500;

/** Winter cooling over fully ice-covered sea, K (Arctic Ocean winters near -30 degC against about -10 over open polar water). */
const SEA_ICE_WINTER_K = 20;

/**
 * The lowest coldest-month and warmest-month means of the air over any sea (open, frozen, or an
 * ice shelf) in the July and December climatology the fit reads (0082): -39 degC (the Ross Ice
 * Shelf in July) and -13 degC (Antarctic seas in December), each less the maps' 1.3 K offset
 * and rounded down. The fit takes sea targets only equatorward of 60 degrees
 * (scripts/fit-geoclimate.ts), so over the polar seas its latitude bands extrapolate, as far as
 * -108 degC for the coldest month near 70 S 133 W; a place's sea share takes no month colder
 * than these (docs/decisions/0212-polar-sea-climate-floor.md).
 */
const SEA_COLDEST_MONTH_FLOOR_C = -41;
const SEA_WARMEST_MONTH_FLOOR_C = -15;

/** A fitted monthly mean raised toward a floor by the place's sea share (0..1) where it lies below it. */
function seaFloored(value: number, floor: number, seaShare: number): number {
  return value < floor ? value + seaShare * (floor - value) : value;
}

function smoothstep(x: number): number {
  const t = x < 0 ? 0 : x > 1 ? 1 : x;
  return t * t * (3 - 2 * t);
}

/** Mean of cos over a month centred on its peak: sin(x)/x, x = pi x 30.44 / 365.24 days. */
const MONTH_OF_PEAK = 0.9887;

/**
 * The climate terms of a place. With s = sin|lat| and the terms
 *   U = w_W landWest + (1 - w_W) landEast            large-scale upwind land (w_W westerly share)
 *   X = land (0.3 continentality + 0.7 U)            continental exposure
 *   P = land landPoleward                            source of cold air masses
 *   D = exp(-((|lat| - 58) / 10)^2) (1 - landWest) landEast        warm poleward drift
 *   Q = exp(-((|lat| - 20) / 12)^2) (1 - landWest) landEast e^(-inland/300 km)  cold upwelling
 *   S = land continentality exp(-((|lat| - 25) / 10)^2)            subtropical land heating
 *   Z = plateau / 1 km,  I = land (1 - e^(-inland/300 km)),
 *   L = land min(1, (shelter - z) / 1 km)          lee of higher ground upwind
 *   H = L (1 - continentality)                      sheltered from the sea
 *   F = w_W L continentality                        downslope (foehn, chinook) winds
 * each of the coldest and the warmest monthly means at sea level is
 *   T = a0 + a1 s + a2 s^2 + a3 X s + a4 P s + a5 D + a6 Q + a7 S + a8 Z + a9 I s + a10 H + a11 F
 *       + a12 M s^2 + a13 G s + a14 J  (M, G, J: maritime, landSurface, iceSheet)
 * plus, per latitude band, a form on 1 and the sea upwind in each direction (ClimateForm,
 * docs/decisions/0088-temperature-with-the-sea-upwind.md): the air a place gets from the sea or
 * across land, which the named terms give only along the latitude circle. The annual mean is
 * their midpoint and the cycle's half-range half their difference (scaled from
 * the month to the peak day), tapered to zero over the 8 degrees next to the equator where the
 * cycle is weak and changes hemisphere.
 */
export function regressionTerms(g: ClimateInputs): TemperatureTerms {
  const a = Math.abs(g.lat);
  const s = Math.sin(a * DEG);
  const land = g.land;
  const inlandKm = g.coastKm > 0 ? g.coastKm : 0;
  const ww = westerlyWeight(g.lat);
  const upwind = ww * g.landWest + (1 - ww) * g.landEast;
  const exposure = land * (0.3 * g.continentality + 0.7 * upwind);
  const westCoast = (1 - g.landWest) * g.landEast;
  const inland = land * (1 - Math.exp(-inlandKm / 300));
  const lee = leeOf(g);
  const terms: TemperatureTerms = {
    base: 1,
    sinLat: s,
    sin2Lat: s * s,
    exposure: exposure * s,
    poleward: land * g.landPoleward * s,
    warmDrift: Math.exp(-(((a - 58) / 10) ** 2)) * westCoast,
    coldCurrent: Math.exp(-(((a - 20) / 12) ** 2)) * westCoast * Math.exp(-inlandKm / 300),
    subtropicalLand: land * g.continentality * Math.exp(-(((a - 25) / 10) ** 2)),
    plateau: Math.max(0, g.plateau) / 1000,
    inland: inland * s,
    shelter: lee * (1 - g.continentality),
    foehn: ww * lee * g.continentality,
    maritime: g.seaNear * s * s,
    landSurface: land * s,
    iceSheet: land * smoothstep((a - 60) / 10) * Math.min(1, Math.max(0, g.plateau) / 2000),
  };
  return terms;
}

/** Days after the solstice of the annual cycle's peak: the surface answers the sun about a month late over land, nearer two over open sea. */
export function lagDaysOf(g: ClimateInputs): number {
  const ww = westerlyWeight(g.lat);
  const exposure = g.land * (0.3 * g.continentality + 0.7 * (ww * g.landWest + (1 - ww) * g.landEast));
  const inland = g.land * (1 - Math.exp(-Math.max(0, g.coastKm) / 300));
  return 25 + 25 * (1 - Math.min(1, exposure + inland));
}

/** Centres of the climate's latitude bands, degrees (signed: the hemispheres differ), and their e-folding half-width. */
const LATITUDE_BAND_CENTRES = [-75, -60, -45, -30, -15, 0, 15, 30, 45, 60, 75] as const;
const LATITUDE_BAND_WIDTH_DEG = 9;

/** The weight of each latitude band (LATITUDE_BAND_CENTRES) at a latitude. */
export function latitudeBands(lat: number): number[] {
  return LATITUDE_BAND_CENTRES.map((c) => Math.exp(-(((lat - c) / LATITUDE_BAND_WIDTH_DEG) ** 2)));
}

/**
 * One fitted form of the climate (geoclimate-coefficients.ts, precipitation-coefficients.ts): per
 * band (the latitude bands, and for the rain the monsoon), the coefficients of 1 and of the sea
 * upwind (ClimateInputs `seaFetch`), which say what the air arriving from each side brings; and
 * the coefficients of the named terms.
 */
export interface ClimateForm<T> {
  bands: readonly (readonly number[])[];
  terms: T;
}

/** A form evaluated on a place's band weights, what they multiply (1 and the sea fetch) and its named terms. */
function evaluateForm<T extends object>(form: ClimateForm<T>, bands: readonly number[], fetch: readonly number[], terms: T): number {
  let v = 0;
  bands.forEach((w, b) => {
    if (w === 0) return;
    const c = form.bands[b]!;
    let s = 0;
    for (let k = 0; k < fetch.length; k++) s += c[k]! * fetch[k]!;
    v += w * s;
  });
  const named = form.terms as Record<string, number>,
    values = terms as Record<string, number>;
  for (const k of Object.keys(named)) v += named[k]! * values[k]!;
  return v;
}

/** The climate terms of a place (see regressionTerms for the fitted part). */
function climateTerms(g: ClimateInputs): ClimateTerms {
  return climateParts(g).terms;
}

/** The precipitation climate's terms at a point (for scripts/fit-precipitation.ts). */
export function precipitationFeaturesAt(lat: number, lon: number, geo: Geography = earthGeography()) {
  return climateParts(climateInputsAt(geo, lat, lon)).precipitation;
}

function climateParts(g: ClimateInputs): { terms: ClimateTerms; precipitation: PrecipitationFeatures } {
  const a = Math.abs(g.lat);
  const land = g.land;
  const ww = westerlyWeight(g.lat);
  const upwind = ww * g.landWest + (1 - ww) * g.landEast;
  const westCoast = (1 - g.landWest) * g.landEast;
  const terms = regressionTerms(g);
  const bands = latitudeBands(g.lat),
    fetch = [1, ...g.seaFetch];
  // Winter sea ice, not among the fitted stations: over frozen polar seas the winter air loses
  // the ocean's heat (ice insulates it), except where a warm drift keeps the sea open.
  const seaIce = (1 - land) * smoothstep((a - 60) / 20) * (1 - westCoast);
  const coldest = seaFloored(evaluateForm(COLDEST, bands, fetch, terms) - SEA_ICE_WINTER_K * seaIce, SEA_COLDEST_MONTH_FLOOR_C, 1 - land),
    warmest = seaFloored(evaluateForm(WARMEST, bands, fetch, terms), SEA_WARMEST_MONTH_FLOOR_C, 1 - land);
  const halfRange = (Math.max(0, warmest - coldest) / 2 / MONTH_OF_PEAK) * Math.min(1, a / 8);
  const lagDays = lagDaysOf(g);
  // Deserts: the subtropical highs' subsiding air is dry where it has crossed land (Sahara,
  // Arabia, inner Australia) or a cold upwelling sea (Atacama, Namib).
  const subtropicalHigh = Math.exp(-(((a - 24) / 9) ** 2));
  const dryness = Math.min(1, land * subtropicalHigh * (upwind + 2 * terms.coldCurrent));
  // Monsoons: in its summer, tropical and subtropical land heats and draws moist air inland
  // from a sea on its equator side (South Asia, the Sahel, northern Australia); they also end
  // the dry season there, so they take back part of the desert's dryness.
  // A high plateau a few degrees poleward heats the air above it in summer (an elevated heat
  // source: Flohn 1957, Yanai et al. 1992 for Tibet) and pulls the monsoon's low and its rain far
  // up the plains below it, beyond the reach of a sea equatorward (the Ganges plain, Punjab,
  // Sichuan); a highland of under 1.5 km mean height (Iran, Arabia's rim) does not
  // (docs/decisions/0084-monsoon-rain-shadows-itcz.md).
  const elevatedHeating =
    smoothstep((g.highlandPoleward - HIGHLAND_MONSOON_MIN_M) / HIGHLAND_MONSOON_SPAN_M) * Math.exp(-(((a - 25) / 10) ** 2));
  const monsoon = land * Math.min(1, Math.exp(-(((a - 17) / 10) ** 2)) * Math.min(1, 2 * (1 - g.landEquatorward)) + elevatedHeating);
  const desert = dryness * (1 - monsoon);
  const mean = (coldest + warmest) / 2;
  const p = precipitationFeatures(g, {
    meanAtGround: mean - LAPSE_RATE_K_PER_M * Math.max(0, g.elevation),
    halfRange,
    desert,
    monsoon,
    bands,
    fetch,
  });
  const climate: ClimateTerms = {
    mean,
    amplitude: g.lat >= 0 ? halfRange : -halfRange,
    lagDays,
    dryness: desert,
    monsoon: g.lat >= 0 ? monsoon : -monsoon,
    precipLog: evaluateForm(PRECIPITATION_MEAN, p.bands, p.fetch, p.mean),
    precipSeason: evaluateForm(PRECIPITATION_SEASON, p.bands, p.fetch, p.season),
  };
  return { terms: climate, precipitation: p };
}

/** What the temperature climate gives the precipitation climate at a place. */
export interface PrecipitationDrivers {
  /** annual mean temperature at the ground, degC */
  meanAtGround: number;
  /** half-range of the annual temperature cycle, K */
  halfRange: number;
  /** desert dryness and monsoon strength, 0..1 */
  desert: number;
  monsoon: number;
  /** the place's latitude bands (latitudeBands) and 1 and its sea fetch, as the temperature forms read them */
  bands: number[];
  fetch: number[];
}

/** A place's terms of the precipitation climate: what precipitationFeatures gives, what the fit reads. */
export interface PrecipitationFeatures {
  /** the weight of each latitude band at the place (latitudeBands), then the monsoon's strength */
  bands: number[];
  /** 1, then the sea upwind (seaFetch): what each band's coefficients multiply */
  fetch: number[];
  mean: PrecipitationMeanTerms;
  /** signed: > 0 makes July the wetter */
  season: PrecipitationSeasonTerms;
}

/**
 * Terms of the monthly precipitation climate (docs/decisions/0087-precipitation-fitted-to-a-global-climatology.md).
 * With L = ln(P + 3), P the monthly total in mm, L over the year is m + s cos(angle from mid-July),
 * and m and s are each one linear form (ClimateForm) of these terms, fitted by
 * scripts/fit-precipitation.ts to the July and December precipitation of a global climatology:
 *   bands:  the general circulation's rain belts by latitude (the ITCZ and its migration with the
 *           sun, the subtropical highs, the storm tracks) and the monsoon, each modulated by the
 *           sea upwind in each direction, near and far: how much moist air can reach the place,
 *           which way the wind blows there being what the fit finds per band (trades, westerlies,
 *           the monsoons' inflow);
 *   terms:  windward slopes (high ground with the sea on the other side: orographic rain) and the
 *           westerlies' (Norway, British Columbia, southern Chile), rain shadows (the lee of high
 *           ground upwind), height (thin, dry air over high plateaus), moisture (the air's
 *           capacity: Clausius-Clapeyron, ~6 % a kelvin, from the annual mean at the ground),
 *           deserts (subsidence, and near 28 degrees the lee of high ground upwind), monsoons;
 *           in the season also continental summer convection, west coasts' winter storms,
 *           Mediterranean winters (west coasts near 35 degrees), the temperature cycle's range
 *           (summer air holds more water) and windward slopes in the monsoon.
 * Every seasonal term but the bands is signed by hemisphere (the summer is July in the north).
 */
export function precipitationFeatures(g: ClimateInputs, d: PrecipitationDrivers): PrecipitationFeatures {
  const a = Math.abs(g.lat);
  const land = g.land;
  const ww = westerlyWeight(g.lat);
  const westCoast = (1 - g.landWest) * g.landEast;
  const band = (centre: number, width: number) => Math.exp(-(((a - centre) / width) ** 2));
  // The lee of higher ground upwind (a rain shadow): the air has dropped its water on the way up.
  const lee = leeOf(g);
  const mean: PrecipitationMeanTerms = {
    windward: land * g.windward,
    westerlyWindward: land * ww * g.westerlyWindward,
    rainShadow: lee,
    elevation: Math.max(0, g.elevation) / 1000,
    moisture: d.meanAtGround / 10,
    desert: Math.min(1, d.desert + band(28, 10) * lee) * (1 - d.monsoon),
    monsoon: d.monsoon,
  };
  const h = g.lat >= 0 ? 1 : -1;
  const season: PrecipitationSeasonTerms = {
    windward: h * mean.windward,
    westerlyWindward: h * mean.westerlyWindward,
    rainShadow: h * mean.rainShadow,
    elevation: h * mean.elevation,
    moisture: h * mean.moisture,
    desert: h * mean.desert,
    monsoon: h * mean.monsoon,
    convection: h * land * g.continentality * band(45, 20),
    westCoastWinter: h * westCoast * band(48, 12),
    mediterranean: h * westCoast * land * band(35, 7),
    range: (h * d.halfRange) / 10,
    windwardMonsoon: h * land * g.windward * d.monsoon,
  };
  return {
    bands: [...d.bands, d.monsoon],
    fetch: d.fetch,
    mean,
    season,
  };
}

/** Rings of the sea-share disk: radius (degrees of latitude) and points on it. */
const SEA_RINGS: readonly (readonly [number, number])[] = [
  [0, 1],
  [1.25, 8],
  [2.5, 12],
  [3.5, 16],
];

/** Highest ground within 4 degrees upwind along the latitude (west in the westerlies, east in the trades), m. */
function highestGroundUpwind(geo: Geography, lat: number, lon: number): number {
  const ww = westerlyWeight(lat);
  let shelter = 0;
  for (let d = 0.5; d <= 4; d += 0.5) {
    const e = geo.elevationAt(lat, lon + (ww >= 0.5 ? -d : d));
    if (e > shelter) shelter = e;
  }
  return shelter;
}

/** The lee of higher ground upwind at a point (leeOf), from the few lookups it needs. */
export function leeAt(lat: number, lon: number, geo: Geography = earthGeography()): number {
  const s = geo.sampleAt(lat, lon);
  return leeOf({ land: s.landFraction, shelter: highestGroundUpwind(geo, lat, lon), elevation: s.elevation });
}

/** The inputs of climateTerms at one place, from the geography lookups. */
export function climateInputsAt(geo: Geography, lat: number, lon: number): ClimateInputs {
  const s = geo.sampleAt(lat, lon);
  const clampLat = (x: number) => (x > 89.9 ? 89.9 : x < -89.9 ? -89.9 : x);
  let plateau = 0;
  for (let dy = -1.5; dy <= 1.5; dy += 0.75)
    for (let dx = -1.5; dx <= 1.5; dx += 0.75) plateau += geo.elevationAt(clampLat(lat + dy), lon + dx);
  plateau /= 25;
  const shelter = highestGroundUpwind(geo, lat, lon);
  const kmPerDeg = 111.2 * Math.cos(lat * DEG);
  let wSum = 0,
    west = 0,
    east = 0;
  for (let d = 1; d <= 90; d += 2) {
    const k = Math.exp(-(d * kmPerDeg) / 3000);
    wSum += k;
    west += k * geo.landFractionAt(lat, lon - d);
    east += k * geo.landFractionAt(lat, lon + d);
  }
  let pSum = 0,
    pole = 0;
  for (let d = 2; d <= 30; d += 2) {
    const la = lat + (lat >= 0 ? d : -d);
    if (Math.abs(la) > 89.9) continue;
    const k = Math.exp(-d / 12);
    for (let dx = -6; dx <= 6; dx += 3) {
      pSum += k;
      pole += k * geo.landFractionAt(la, lon + dx);
    }
  }
  let qSum = 0,
    equator = 0;
  for (let d = 2; d <= 12; d += 2) {
    const la = lat >= 0 ? lat - d : lat + d;
    for (let dx = -4; dx <= 4; dx += 2) {
      qSum++;
      equator += geo.landFractionAt(la, lon + dx);
    }
  }
  let hSum = 0,
    highland = 0;
  for (let d = 2; d <= 10; d += 2) {
    const la = clampLat(lat >= 0 ? lat + d : lat - d);
    for (let dx = -6; dx <= 6; dx += 2) {
      hSum++;
      highland += Math.max(0, geo.elevationAt(la, lon + dx));
    }
  }
  // Sea share in a disk of radius 3.5 degrees of latitude (~390 km), rings at 1.25, 2.5 and 3.5.
  let nSum = 0,
    sea = 0;
  const cosLat = Math.max(0.2, Math.cos(lat * DEG));
  for (const [rad, count] of SEA_RINGS) {
    for (let q = 0; q < count; q++) {
      const b = (2 * Math.PI * q) / count;
      sea += 1 - geo.landFractionAt(clampLat(lat + rad * Math.cos(b)), lon + (rad * Math.sin(b)) / cosLat);
      nSum++;
    }
  }
  let ridgeEast = 0,
    ridgeWest = 0,
    seaEast = 0,
    seaWest = 0;
  const dLon = 1 / cosLat;
  for (let d = 0.5; d <= 2.5; d += 0.5) {
    ridgeEast = Math.max(ridgeEast, geo.elevationAt(lat, lon + d * dLon));
    ridgeWest = Math.max(ridgeWest, geo.elevationAt(lat, lon - d * dLon));
  }
  for (let d = 0.5; d <= 3; d += 0.5) {
    seaEast += (1 - geo.landFractionAt(lat, lon + d * dLon)) / 6;
    seaWest += (1 - geo.landFractionAt(lat, lon - d * dLon)) / 6;
  }
  const windward = Math.min(1.5, Math.max(seaWest * ridgeEast, seaEast * ridgeWest) / 1000);
  return {
    seaFetch: seaFetchAt(geo, lat, lon),
    lat,
    windward,
    westerlyWindward: Math.min(1.5, (seaWest * ridgeEast) / 1000),
    seaNear: sea / nSum,
    land: s.landFraction,
    coastKm: s.coastDistanceKm,
    continentality: s.continentality,
    plateau,
    shelter,
    elevation: s.elevation,
    landWest: west / wSum,
    landEast: east / wSum,
    landPoleward: pSum > 0 ? pole / pSum : 0,
    landEquatorward: equator / qSum,
    highlandPoleward: highland / hSum,
  };
}

/** ClimateInputs `seaFetch` at a place: the directions of SEA_FETCH_DIRECTIONS at each reach in turn. */
function seaFetchAt(geo: Geography, lat: number, lon: number): number[] {
  const nDir = SEA_FETCH_DIRECTIONS.length;
  const kmPerDegLon = 111.2 * Math.max(0.2, Math.cos(lat * DEG));
  const poleward = lat >= 0 ? 1 : -1;
  const out = new Array<number>(nDir * SEA_FETCH_REACH_KM.length).fill(0);
  for (let s = 0; s < SEA_FETCH_STEPS; s++) {
    const r = (s + 1) * SEA_FETCH_STEP_KM;
    for (let d = 0; d < nDir; d++) {
      const [north, east] = SEA_FETCH_DIRECTIONS[d]!;
      const la = lat + (poleward * north * r) / 111.2;
      const sea = 1 - geo.landFractionAt(la > 89.9 ? 89.9 : la < -89.9 ? -89.9 : la, lon + (east * r) / kmPerDegLon);
      for (let i = 0; i < SEA_FETCH_REACH_KM.length; i++) out[i * nDir + d]! += SEA_FETCH_WEIGHTS[i * SEA_FETCH_STEPS + s]! * sea;
    }
  }
  return out;
}

/** Directions of the sea fetch as [poleward, east] unit steps: west, east, poleward, equatorward, and the four diagonals. */
const SEA_FETCH_DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, -1],
  [0, 1],
  [1, 0],
  [-1, 0],
  [Math.SQRT1_2, -Math.SQRT1_2],
  [Math.SQRT1_2, Math.SQRT1_2],
  [-Math.SQRT1_2, -Math.SQRT1_2],
  [-Math.SQRT1_2, Math.SQRT1_2],
];
const SEA_FETCH_STEPS = SEA_FETCH_MAX_KM / SEA_FETCH_STEP_KM;
/** Weight of each step at each reach (reach-major), exp(-distance / reach) normalised to sum 1 per reach. */
const SEA_FETCH_WEIGHTS = Float64Array.from(
  SEA_FETCH_REACH_KM.flatMap((reach) => {
    const w = Array.from({ length: SEA_FETCH_STEPS }, (_, s) => Math.exp(-((s + 1) * SEA_FETCH_STEP_KM) / reach));
    const sum = w.reduce((a, b) => a + b, 0);
    return w.map((x) => x / sum);
  }),
);

/** The climate terms of lattice node (i, j) (row from the equator, column from 0 E) into `out` from `at`, in NODE_FIELDS order. */
function nodeTermsInto(geo: Geography, i: number, j: number, out: Float64Array, at: number): void {
  const t = climateTerms(climateInputsAt(geo, Math.max(-90, Math.min(90, i * NODE_DEG)), j * NODE_DEG));
  out[at + MEAN] = t.mean;
  out[at + AMPLITUDE] = t.amplitude;
  out[at + LAG_DAYS] = t.lagDays;
  out[at + DRYNESS] = t.dryness;
  out[at + MONSOON] = t.monsoon;
  out[at + PRECIP_LOG] = t.precipLog;
  out[at + PRECIP_SEASON] = t.precipSeason;
}
const [MEAN, AMPLITUDE, LAG_DAYS, DRYNESS, MONSOON, PRECIP_LOG, PRECIP_SEASON] = NODE_FIELDS.map((_, k) => k) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];

/**
 * The lattice of each geography: Earth's in the table its process shares with its compute threads
 * (earth-lattice-table.ts), read from its file in the cache folder once one is written there
 * (climate-lattice.ts); any other (a test's) computed in memory of its own.
 */
const lattices = new WeakMap<Geography, ClimateLattice>();

function latticeOf(geo: Geography): ClimateLattice {
  let lattice = lattices.get(geo);
  if (!lattice) {
    const earth = geo === earthGeography();
    lattice = new ClimateLattice(
      (i, j, out, at) => nodeTermsInto(geo, i, j, out, at),
      earth ? climateCacheDir() : undefined,
      earth
        ? [
            JSON.stringify([
              COLDEST,
              WARMEST,
              PRECIPITATION_MEAN,
              PRECIPITATION_SEASON,
              SEA_COLDEST_MONTH_FLOOR_C,
              SEA_WARMEST_MONTH_FLOOR_C,
            ]),
            readFileSync(GEOGRAPHY_FILE),
          ]
        : [],
      earth ? earthLatticeTable() : undefined,
    );
    lattices.set(geo, lattice);
  }
  return lattice;
}

/** Forgets the lattice's nodes: for the fit script, which changes the coefficients between rounds. */
export function clearClimateNodes(): void {
  lattices.delete(earthGeography());
  forgetEarthLatticeTable();
}

/**
 * Writes Earth's whole lattice to its file in the cache folder (FIELDCAST_CACHE_DIR), unless it
 * is there, so every process and thread reads the climate instead of computing it; returns the file.
 */
export function writeClimateLatticeFile(): string {
  return latticeOf(earthGeography()).writeFile();
}

/**
 * Loads the geography and names Earth's lattice file (its fingerprint computes sample nodes): what a
 * process's or thread's first read of the synthetic climate pays, about a quarter of a second,
 * paid by services at start instead.
 */
export function prepareSyntheticClimate(): void {
  latticeOf(earthGeography()).file();
}

/**
 * Reads every row of Earth's lattice not yet in its process's table from the file, a few rows per
 * turn of the event loop (nothing without the file): for an area whose first requests read most of
 * the globe (a world map's tiles), at start rather than by the first of them, until `signal` is
 * aborted. Returns the rows read.
 */
export function readClimateLattice(signal?: AbortSignal): Promise<number> {
  return latticeOf(earthGeography()).readWhole(signal);
}

/** How many rows of Earth's lattice its process's table holds whole, of how many. */
export function climateLatticeRowsWhole(): { whole: number; of: number } {
  return latticeOf(earthGeography()).rowsWhole();
}

/** The file Earth's lattice is read from once written (writeClimateLatticeFile). */
export function climateLatticeFile(): string {
  return latticeOf(earthGeography()).file()!;
}

/**
 * cos and sin of the annual cycle's phase at each node of a lattice row, side by side, NaN until
 * the node is first read: every cell around a node takes the same two values (cellClimate), and
 * they were most of its cost when taken per cell.
 */
const nodePhases = new WeakMap<Float64Array, Float64Array>();

function phasesOf(row: Float64Array): Float64Array {
  let phases = nodePhases.get(row);
  if (!phases) nodePhases.set(row, (phases = new Float64Array((2 * row.length) / NODE_FIELDS.length).fill(Number.NaN)));
  return phases;
}

/** Where the node at `at` of `row` (nodeOffset) has its phase's cos (sin next to it) in `phases`, computed on first use. */
function phaseAt(phases: Float64Array, row: Float64Array, at: number): number {
  const i = (2 * at) / NODE_FIELDS.length;
  if (Number.isNaN(phases[i]!)) {
    const p = w0 * (SOLSTICE_DAY + row[at + LAG_DAYS]!);
    phases[i] = Math.cos(p);
    phases[i + 1] = Math.sin(p);
  }
  return i;
}

/**
 * Bilinear blend of every term of the four nodes around a cell (weights as cellClimate gives them)
 * into `out`, in NODE_FIELDS order: one call a cell writing an array, where a call per term
 * returned each number boxed on the heap (most of a world tile's allocations).
 */
function blendNodes(
  w00: number,
  w01: number,
  w10: number,
  w11: number,
  south: Float64Array,
  southEast: Float64Array,
  north: Float64Array,
  northEast: Float64Array,
  a00: number,
  a01: number,
  out: Float64Array,
): Float64Array {
  for (let field = 0; field < out.length; field++)
    out[field] = w00 * south[a00 + field]! + w01 * southEast[a01 + field]! + w10 * north[a00 + field]! + w11 * northEast[a01 + field]!;
  return out;
}

/** Per-cell climate terms of a block (row-major lats x lons), interpolated from the lattice. */
export interface CellClimate {
  /** annual mean at sea level, degC */
  mean: Float32Array;
  /** cos and sin parts of the annual cycle: amplitude x cos/sin(2 pi peakDay / year) */
  seasonCos: Float32Array;
  seasonSin: Float32Array;
  /** static shift of the cloud field's bias (negative over deserts) */
  cloudShift: Float32Array;
  /** cos and sin parts of the monsoon's seasonal shift of the cloud bias, peaking in late July (north) or January (south) */
  monsoonCos: Float32Array;
  monsoonSin: Float32Array;
  /** monthly precipitation climate: ln(P + 3), P in mm a month, = precipLog + precipCos cos(angle) + precipSin sin(angle) */
  precipLog: Float32Array;
  precipCos: Float32Array;
  precipSin: Float32Array;
}

/** Cloud-bias shift of a full desert and half-swing of a full monsoon (cloudFraction's units). */
const DESERT_CLOUD_SHIFT = -0.5;
const MONSOON_CLOUD_SWING = 1.2;
/** Day of year of the monsoon's peak in the north (late July). */
const MONSOON_PEAK_DAY = 205;

/** Day of year of mid-July, where the precipitation climate's summer is read (the normals' July). */
const PRECIPITATION_PEAK_DAY = 196.5;

/** Day of year of the June solstice. */
const SOLSTICE_DAY = 172;
const w0 = (2 * Math.PI) / TROPICAL_YEAR_DAYS;

export function cellClimate(
  lats: ArrayLike<number>,
  lons: ArrayLike<number>,
  geo: Geography = earthGeography(),
  cells: CellList = null,
): CellClimate {
  const nR = lats.length,
    nC = lons.length,
    n = cellCount(nR, nC, cells);
  const mean = new Float32Array(n),
    seasonCos = new Float32Array(n),
    seasonSin = new Float32Array(n);
  const cloudShift = new Float32Array(n),
    monsoonCos = new Float32Array(n),
    monsoonSin = new Float32Array(n);
  const monsoonCosPhase = Math.cos(w0 * MONSOON_PEAK_DAY),
    monsoonSinPhase = Math.sin(w0 * MONSOON_PEAK_DAY);
  const precipLog = new Float32Array(n),
    precipCos = new Float32Array(n),
    precipSin = new Float32Array(n);
  const precipCosPhase = Math.cos(w0 * PRECIPITATION_PEAK_DAY),
    precipSinPhase = Math.sin(w0 * PRECIPITATION_PEAK_DAY);
  const colJ = new Int32Array(nC),
    colF = new Float64Array(nC);
  for (let c = 0; c < nC; c++) {
    const x = lons[c]! / NODE_DEG;
    colJ[c] = Math.floor(x);
    colF[c] = x - colJ[c]!;
  }
  const lattice = latticeOf(geo);
  const blended = new Float64Array(NODE_FIELDS.length);
  const cell = (k: number, c: number, i0: number, fy: number, southPhases: Float64Array, northPhases: Float64Array) => {
    const j0 = colJ[c]!,
      fx = colF[c]!;
    // the four nodes around the cell: rows i0 (south) and i0 + 1, columns j0 (west) and j0 + 1
    const south = lattice.nodeRow(i0, j0),
      southEast = lattice.nodeRow(i0, j0 + 1),
      north = lattice.nodeRow(i0 + 1, j0),
      northEast = lattice.nodeRow(i0 + 1, j0 + 1);
    const a00 = nodeOffset(j0),
      a01 = nodeOffset(j0 + 1);
    const w00 = (1 - fx) * (1 - fy),
      w01 = fx * (1 - fy),
      w10 = (1 - fx) * fy,
      w11 = fx * fy;
    const terms = blendNodes(w00, w01, w10, w11, south, southEast, north, northEast, a00, a01, blended);
    mean[k] = terms[MEAN]!;
    // The cycle's cos/sin parts interpolate smoothly across the equator, where the amplitude changes
    // sign; a sum from +0, so a zero amplitude gives +0 whatever the sign of its cosine.
    const p00 = phaseAt(southPhases, south, a00),
      p01 = phaseAt(southPhases, southEast, a01),
      p10 = phaseAt(northPhases, north, a00),
      p11 = phaseAt(northPhases, northEast, a01);
    const A00 = south[a00 + AMPLITUDE]!,
      A01 = southEast[a01 + AMPLITUDE]!,
      A10 = north[a00 + AMPLITUDE]!,
      A11 = northEast[a01 + AMPLITUDE]!;
    seasonCos[k] =
      0 + w00 * A00 * southPhases[p00]! + w01 * A01 * southPhases[p01]! + w10 * A10 * northPhases[p10]! + w11 * A11 * northPhases[p11]!;
    seasonSin[k] =
      0 +
      w00 * A00 * southPhases[p00 + 1]! +
      w01 * A01 * southPhases[p01 + 1]! +
      w10 * A10 * northPhases[p10 + 1]! +
      w11 * A11 * northPhases[p11 + 1]!;
    cloudShift[k] = DESERT_CLOUD_SHIFT * terms[DRYNESS]!;
    const m = MONSOON_CLOUD_SWING * terms[MONSOON]!;
    monsoonCos[k] = m * monsoonCosPhase;
    monsoonSin[k] = m * monsoonSinPhase;
    precipLog[k] = terms[PRECIP_LOG]!;
    const ps = terms[PRECIP_SEASON]!;
    precipCos[k] = ps * precipCosPhase;
    precipSin[k] = ps * precipSinPhase;
  };
  const rowOf = (r: number) => {
    const y = lats[r]! / NODE_DEG;
    const i0 = Math.floor(y);
    return { i0, fy: y - i0 };
  };
  if (cells) {
    const rows = Array.from({ length: nR }, (_, r) => rowOf(r));
    for (let k = 0; k < n; k++) {
      const c = cells.col[k]!,
        { i0, fy } = rows[cells.row[k]!]!;
      cell(k, c, i0, fy, phasesOf(lattice.nodeRow(i0, colJ[c]!)), phasesOf(lattice.nodeRow(i0 + 1, colJ[c]!)));
    }
  } else {
    for (let r = 0; r < nR && nC > 0; r++) {
      const { i0, fy } = rowOf(r);
      // A lattice row is one array whatever the column (nodeRow), so its phases are found once per row.
      const southPhases = phasesOf(lattice.nodeRow(i0, colJ[0]!)),
        northPhases = phasesOf(lattice.nodeRow(i0 + 1, colJ[0]!));
      for (let c = 0; c < nC; c++) cell(r * nC + c, c, i0, fy, southPhases, northPhases);
    }
  }
  return { mean, seasonCos, seasonSin, cloudShift, monsoonCos, monsoonSin, precipLog, precipCos, precipSin };
}

/**
 * The climate of the centres of the 1 degree tiles severe weather is drawn on (severe.ts,
 * convective-ingredients.ts), each computed once (cellClimate of the point alone) and kept in a
 * static table: the storms of every day read the same tile centres again. 9 x 64,800 float32
 * values, as cellClimate stores them, so a point's values are the same from the table or not.
 */
const TILE_ROWS = 180,
  TILE_COLS = 360;
let tileTable: { climate: CellClimate; filled: Uint8Array } | undefined;

/** The climate of one point: the table of tile centres and the point's index in it, or the point's own 1 x 1 block. */
function climateOfPoint(lat: number, lon: number, geo: Geography): { c: CellClimate; k: number } {
  const row = lat + 89.5,
    col = lon + 179.5;
  if (
    geo !== earthGeography() ||
    !Number.isInteger(row) ||
    !Number.isInteger(col) ||
    row < 0 ||
    row >= TILE_ROWS ||
    col < 0 ||
    col >= TILE_COLS
  ) {
    return { c: cellClimate([lat], [lon], geo), k: 0 };
  }
  if (!tileTable) {
    const plane = () => new Float32Array(TILE_ROWS * TILE_COLS);
    tileTable = {
      climate: {
        mean: plane(),
        seasonCos: plane(),
        seasonSin: plane(),
        cloudShift: plane(),
        monsoonCos: plane(),
        monsoonSin: plane(),
        precipLog: plane(),
        precipCos: plane(),
        precipSin: plane(),
      },
      filled: new Uint8Array(TILE_ROWS * TILE_COLS),
    };
  }
  const k = row * TILE_COLS + col;
  if (tileTable.filled[k] === 0) {
    const point = cellClimate([lat], [lon], geo);
    for (const field of Object.keys(point) as (keyof CellClimate)[]) tileTable.climate[field][k] = point[field][0]!;
    tileTable.filled[k] = 1;
  }
  return { c: tileTable.climate, k };
}

/** The climate terms of a point (the mean and the annual cycle's parts), as cellClimate gives them. */
export function pointClimate(lat: number, lon: number): { mean: number; seasonCos: number; seasonSin: number } {
  const { c, k } = climateOfPoint(lat, lon, earthGeography());
  return { mean: c.mean[k]!, seasonCos: c.seasonCos[k]!, seasonSin: c.seasonSin[k]! };
}

/** Desert dryness at a point, 0..1 (the static part of the cloud shift, in units of a full desert). */
export function drynessAt(lat: number, lon: number): number {
  const { c, k } = climateOfPoint(lat, lon, earthGeography());
  return c.cloudShift[k]! / DESERT_CLOUD_SHIFT;
}

/** Monthly precipitation, mm, at which the land's thunderstorm season is in full swing (severe.ts). */
const STORM_SEASON_MM = 60;

/**
 * How wet the month's climate is for convection at a point and time (hours since 1970), 0..1:
 * the precipitation climate's monthly total over STORM_SEASON_MM, capped at 1.
 */
export function convectiveWetness(lat: number, lon: number, tHours: number): number {
  const { c, k } = climateOfPoint(lat, lon, earthGeography());
  const angle = yearAngle(tHours);
  const mm = precipitationClimateAt(c, k, Math.cos(angle), Math.sin(angle)) * DAYS_PER_MONTH;
  return Math.min(1, mm / STORM_SEASON_MM);
}

/** The climatological mean temperature at a point and time (hours since 1970), degC, at its ground height. */
export function climatologyAt(lat: number, lon: number, tHours: number, geo: Geography = earthGeography()): number {
  const { c, k } = climateOfPoint(lat, lon, geo);
  const angle = yearAngle(tHours);
  return (
    c.mean[k]! -
    LAPSE_RATE_K_PER_M * Math.max(0, geo.elevationAt(lat, lon)) +
    c.seasonCos[k]! * Math.cos(angle) +
    c.seasonSin[k]! * Math.sin(angle)
  );
}
