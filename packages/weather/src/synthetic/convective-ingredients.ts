/**
 * The ingredients of deep, severe convection at a place and time of year, beside the afternoon
 * warmth severe.ts already takes from the climate: low-level moisture, steep lapse rates aloft
 * and deep-layer wind shear (the ingredients method: Johns & Doswell 1992, Wea. Forecasting 7;
 * docs/decisions/0085-severe-weather-ingredients.md).
 *
 * Each place's geographic part is a pure function of the committed geography, worked out once
 * per 1 degree tile (severe.ts draws storms per tile) and kept in a bounded memo; the seasonal
 * part is a few products per call.
 */
import { earthGeography } from '@fieldcast/geography';
import { yearAngle } from './climate.js';
import { convectiveWetness, leeAt, pointClimate, westerlyWeight } from './geoclimate.js';

const DEG = Math.PI / 180;
const KM_PER_DEG = 111.2;

/**
 * Sea air of the month at or above WARM_SEA_FROM_C starts to feed storms, fully from
 * WARM_SEA_FULL_C (degC, the synthetic world's daily mean air over the sea: the Gulf of Mexico's
 * reaches 21-24 from May to September, the California Current's and the Mediterranean's stay
 * under 20).
 */
const WARM_SEA_FROM_C = 18;
const WARM_SEA_FULL_C = 23;
/** e-folding distance of moisture carried inland by the low-level flow, km (the Great Plains' low-level jet carries the Gulf's air to the Dakotas, 2,000 km north). */
const INFLOW_REACH_KM = 2000;
/**
 * The sea's air flows in as the land (at sea level) grows warmer than the sea, fully at
 * THERMAL_LOW_K: the heated continent's thermal low draws it (the monsoons, the Great Plains'
 * southerly flow); while the land is the colder, the flow is off the land (the Harmattan).
 */
const THERMAL_LOW_K = 3;
/** How far above its annual mean the land must be for its thermal low to draw fully, K. */
const WARM_SEASON_K = 2;
/** Ground that the moist layer (1-1.5 km deep) cannot cross, m: a sea beyond it feeds nothing. */
const INFLOW_BARRIER_M = 1500;
/**
 * Share of a month's rain climate that counts as storm moisture where no warm sea feeds the low
 * levels: a wet month of frontal rain in cool air (the Pacific Northwest) holds far less water
 * near the ground than air fresh off a warm sea.
 */
const LOCAL_RAIN_SHARE = 0.4;

interface SeaSource extends PointClimate {
  /** exp(-distance / INFLOW_REACH_KM) */
  reach: number;
}

/** A point's climate: mean + seasonCos cos(angle) + seasonSin sin(angle), degC at sea level. */
interface PointClimate {
  mean: number;
  seasonCos: number;
  seasonSin: number;
}

interface TileIngredients {
  /** the tile's own climate */
  here: PointClimate;
  /** warm-sea sources equatorward (lowLevelMoisture) */
  seas: SeaSource[];
  /** the sea upwind along the latitude (marineStability) and its share of the points looked at */
  upwindSea: PointClimate[];
  upwindSeaShare: number;
  /** lee of higher ground upwind, 0..1 (steep lapse rates aloft) */
  lee: number;
}

/** Equatorward offsets of the sea sources, degrees of latitude and of longitude. */
const SOURCE_DLAT = [1, 3, 5, 7, 9, 11, 13, 15];
const SOURCE_DLON = [-6, -3, 0, 3, 6];
/** Points along the path from a source to the place where the barrier is looked for. */
const PATH_STEPS = 6;

function tileIngredients(lat: number, lon: number): TileIngredients {
  const geo = earthGeography();
  const toward = lat >= 0 ? -1 : 1;
  const cosLat = Math.max(0.2, Math.cos(lat * DEG));
  const seas: SeaSource[] = [];
  for (const dLat of SOURCE_DLAT) {
    const la = lat + toward * dLat;
    if (Math.abs(la) > 89) continue;
    for (const dLon of SOURCE_DLON) {
      const lo = lon + dLon;
      if (geo.landFractionAt(la, lo) >= 0.5) continue;
      let barrier = 0;
      for (let k = 1; k < PATH_STEPS; k++) {
        const f = k / PATH_STEPS;
        barrier = Math.max(barrier, geo.elevationAt(lat + (la - lat) * f, lon + (lo - lon) * f));
      }
      if (barrier >= INFLOW_BARRIER_M) continue;
      const km = KM_PER_DEG * Math.hypot(dLat, dLon * cosLat);
      seas.push({ reach: Math.exp(-km / INFLOW_REACH_KM), ...pointClimate(la, lo) });
    }
  }
  const upwind = westerlyWeight(lat) >= 0.5 ? -1 : 1;
  const upwindSea: PointClimate[] = [];
  for (let d = 1; d <= UPWIND_SEA_DEG; d++) {
    const lo = lon + (upwind * d) / cosLat;
    if (geo.landFractionAt(lat, lo) < 0.5) upwindSea.push(pointClimate(lat, lo));
  }
  return {
    here: pointClimate(lat, lon),
    seas,
    upwindSea,
    upwindSeaShare: upwindSea.length / UPWIND_SEA_DEG,
    lee: leeAt(lat, lon, geo),
  };
}

function valueOf(c: PointClimate, ca: number, sa: number): number {
  return c.mean + c.seasonCos * ca + c.seasonSin * sa;
}

const TILE_MEMO_LIMIT = 20_000;
const tileMemo = new Map<string, TileIngredients>();

function ingredientsOf(lat: number, lon: number): TileIngredients {
  const key = `${lat},${lon}`;
  let t = tileMemo.get(key);
  if (!t) {
    t = tileIngredients(lat, lon);
    if (tileMemo.size >= TILE_MEMO_LIMIT) tileMemo.delete(tileMemo.keys().next().value!);
    tileMemo.set(key, t);
  }
  return t;
}

function ramp(x: number, from: number, to: number): number {
  const s = Math.min(1, Math.max(0, (x - from) / (to - from)));
  return s * s * (3 - 2 * s);
}

/**
 * Low-level moisture over land at a place and time (hours since 1970), 0..1: the strongest inflow
 * from a warm sea equatorward (within 15 degrees of latitude and 6 of longitude, reachable below
 * INFLOW_BARRIER_M), each sea weighted by its warmth that month and exp(-distance / 1,200 km),
 * or LOCAL_RAIN_SHARE of the month's rain climate (geoclimate.ts convectiveWetness), whichever
 * is larger. So the Gulf of Mexico moistens the Great Plains from spring on, as it does (the
 * low-level jet), while a rain shadow dries the month's rain there but not the air fed from the
 * south; a cold current offshore feeds nothing.
 */
export function lowLevelMoisture(lat: number, lon: number, tHours: number): number {
  const t = ingredientsOf(lat, lon);
  const angle = yearAngle(tHours);
  const ca = Math.cos(angle),
    sa = Math.sin(angle);
  // at sea level: high ground heats the air above it as a lowland would (the plateau's thermal low)
  const land = valueOf(t.here, ca, sa);
  const wet = convectiveWetness(lat, lon, tHours);
  // The heated continent's low forms in its warm season: in its cool season an afternoon warmer
  // than the sea draws nothing (the Harmattan blows off the Sahel in January).
  const warmSeason = ramp(land - t.here.mean, 0, WARM_SEASON_K);
  let inflow = 0;
  for (const s of t.seas) {
    const sea = valueOf(s, ca, sa);
    // a wet month shows the sea's air arriving whatever drives it (the cyclones of spring)
    const drawn = Math.max(wet, warmSeason * ramp(land - sea, 0, THERMAL_LOW_K));
    inflow = Math.max(inflow, drawn * ramp(sea, WARM_SEA_FROM_C, WARM_SEA_FULL_C) * s.reach);
  }
  return 1 - (1 - inflow) * (1 - LOCAL_RAIN_SHARE * wet);
}

/**
 * Steep lapse rates aloft at a place, 0..1: the lee of higher ground upwind (geoclimate.ts leeAt).
 * Air that crossed a high, sun-heated plateau arrives as an elevated mixed layer, its lapse rate
 * near the dry adiabat, over the moist air below (Carlson, Benjamin, Forbes & Wilkinson 1983,
 * Mon. Wea. Rev. 111: the Mexican plateau and the Rockies over the Great Plains): the same rain
 * shadow that dries a place's rain climate steepens its lapse rates.
 */
export function steepLapseRates(lat: number, lon: number): number {
  return ingredientsOf(lat, lon).lee;
}

/**
 * Stability of marine air at a place and time, 0..1: the share of sea within UPWIND_SEA_DEG
 * degrees upwind along the latitude times how much warmer the land is than that sea's air
 * (ramp from MARINE_FROM_K to MARINE_FULL_K at sea level). Air off a sea much colder than the
 * summer land arrives cool beneath warm subsiding air, under an inversion that caps convection
 * (the marine layer of California, Chile, Namibia and Western Australia: Neiburger, Johnson &
 * Chien 1961, Univ. Calif. Publ. Meteor. 1).
 */
export function marineStability(lat: number, lon: number, tHours: number): number {
  const t = ingredientsOf(lat, lon);
  if (t.upwindSea.length === 0) return 0;
  const angle = yearAngle(tHours);
  const ca = Math.cos(angle),
    sa = Math.sin(angle);
  let sea = 0;
  for (const s of t.upwindSea) sea += valueOf(s, ca, sa);
  sea /= t.upwindSea.length;
  return t.upwindSeaShare * ramp(valueOf(t.here, ca, sa) - sea, MARINE_FROM_K, MARINE_FULL_K);
}

/** Degrees of longitude (at the equator; wider poleward) upwind where marineStability looks for sea. */
const UPWIND_SEA_DEG = 8;
/** Land warmer than the upwind sea's air by MARINE_FROM_K starts to be capped, fully by MARINE_FULL_K, K. */
const MARINE_FROM_K = 3;
const MARINE_FULL_K = 9;

/** Mean latitude of the mid-latitude jet, degrees, and its seasonal swing either way. */
const JET_MEAN_LAT = 38;
const JET_SWING_DEG = 8;
/** Day of year the jet lies furthest poleward in the north (late July, a month after the solstice). */
const JET_POLEWARD_DAY = 215;
/**
 * Share of the jet's winter strength it loses by midsummer: the equator-to-pole temperature
 * contrast that drives it (thermal wind) is weakest in summer.
 */
const JET_SUMMER_WEAKENING = 0.5;
/** Width of the jet's band of strong deep-layer shear, degrees of latitude. */
const JET_WIDTH_DEG = 12;

/**
 * Deep-layer wind shear at a latitude and time, 0..1: the mid-latitude jet's band,
 * exp(-((|lat| - jet) / 12)^2), whose centre follows the sun from 30 degrees in the hemisphere's
 * winter to 46 in its summer, and which weakens by JET_SUMMER_WEAKENING towards midsummer. The season of tornadoes and large hail moves poleward with it,
 * spring in the southern Great Plains, summer in the northern (Brooks, Doswell & Kay 2003,
 * Wea. Forecasting 18).
 */
export function deepShear(lat: number, tHours: number): number {
  const northSummer = Math.cos(yearAngle(tHours) - (2 * Math.PI * JET_POLEWARD_DAY) / 365.2422);
  const summer = lat >= 0 ? northSummer : -northSummer;
  const jet = JET_MEAN_LAT + JET_SWING_DEG * summer;
  const strength = 1 - (JET_SUMMER_WEAKENING * (1 + summer)) / 2;
  return strength * Math.exp(-(((Math.abs(lat) - jet) / JET_WIDTH_DEG) ** 2));
}
