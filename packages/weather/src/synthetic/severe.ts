/**
 * Severe-weather events of the synthetic world for the archive area: hail (with size), tornado
 * tracks, wind gusts, lightning strikes and storm reports.
 *
 * Storms are generated per 1 x 1 degree tile and "event day" (the 24 h from 06Z, the convention
 * of the archive's public record). A tile-day can only be convective when its afternoon is warm
 * (>= 20 degC from the same climatology and anomaly field as the gridded temperature), moist
 * (the dryness field and convective-ingredients.ts: a warm sea in reach, the month's rain),
 * uncapped (no marine inversion) and triggered by a ~330 km / 1 day convection field, so events
 * are sparse, warm-season, and clustered: neighbouring tiles share convective days. Large hail
 * and tornadoes also need the jet's deep shear (docs/decisions/0085-severe-weather-ingredients.md). Each storm moves
 * east-north-east (toward the pole-east in the south) for 1-4 h in the local afternoon and leaves
 * lightning along its path, hail and gusts when strong, and rarely a tornado. Storm reports follow
 * the US NWS severe criteria: hail >= 25.4 mm (1 in), gusts >= 25.7 m/s (50 kt), every tornado.
 *
 * Everything is drawn from integer hashes of (tile, day, storm, item), so the same query gives the
 * same events in every process, and an event's id is the UUID v5 of that key.
 */
import type { BBox, TimeRange } from '../grid/grid-source.js';
import { fieldcastId } from '@fieldcast/ids';
import { metresPerSecondToKnots } from '@fieldcast/science';
import { anomalyScale, TEMPERATURE_ANOMALY } from './climate.js';
import { isLandAt, landFractionAt } from '@fieldcast/geography';
import { climatologyAt, drynessAt } from './geoclimate.js';
import { deepShear, lowLevelMoisture, marineStability, steepLapseRates } from './convective-ingredients.js';
import { DRYNESS_NOISE } from './clouds.js';
import { fieldBound, hashUnit, noiseAt, noiseField } from './noise.js';

/** The kinds of severe weather the synthetic world draws (docs/decisions/0024-severe-weather.md). */
export const SEVERE_KINDS = ['hail', 'tornado', 'gust', 'lightning', 'storm_report'] as const;
export type SevereKind = (typeof SEVERE_KINDS)[number];

interface SevereBase {
  /** UUID v5 of the event's generation key */
  id: string;
  /** epoch ms UTC (tornado: touchdown) */
  timeMs: number;
  lon: number;
  lat: number;
  magnitude: number;
  unit: string;
}

export interface HailEvent extends SevereBase {
  kind: 'hail';
  /** maximum hail diameter, mm */
  unit: 'mm';
  /** probability of severe hail (>= 25.4 mm) at the site, 0..1 */
  probability: number;
}

export interface TornadoEvent extends SevereBase {
  kind: 'tornado';
  /** Enhanced Fujita rating 0..5 */
  unit: 'EF';
  endTimeMs: number;
  /** [lon, lat] points from touchdown to lift-off */
  track: [number, number][];
  lengthKm: number;
  widthM: number;
}

export interface GustEvent extends SevereBase {
  kind: 'gust';
  /** peak gust, m s-1 */
  unit: 'm s-1';
  /** how long gusts stayed above DAMAGING_GUST_MS, minutes: none when the peak is below it */
  durationMinutes: number;
}

export interface LightningEvent extends SevereBase {
  kind: 'lightning';
  /** absolute peak current, kA */
  unit: 'kA';
  strokeType: 'cloud' | 'ground';
}

export interface StormReportEvent extends SevereBase {
  kind: 'storm_report';
  reportType: 'hail' | 'wind' | 'tornado';
  remarks: string;
}

export type AnySevereEvent = HailEvent | TornadoEvent | GustEvent | LightningEvent | StormReportEvent;
export type SevereEvent<K extends SevereKind = SevereKind> = Extract<AnySevereEvent, { kind: K }>;

/** Convective triggering: ~330 km, ~1 day, so storm days cluster in space and time. */
const CONVECTION_NOISE = noiseField([{ spacingDeg: 3, periodHours: 24, amplitude: 1, seed: 0xe501 }]);

const HOUR = 3_600_000;
const KM_PER_DEG = 111.2;
const RAD = Math.PI / 180;
/** Hail diameter of a severe report, mm (1 inch, US NWS). */
export const SEVERE_HAIL_MM = 25.4;
/** Gust speed of a severe wind report, m s-1 (50 kt, US NWS). */
export const SEVERE_GUST_MS = 25.7;
/** The speed a gust event's duration counts minutes above, m s-1 (about 35 kt, docs/decisions/0024-severe-weather.md). */
export const DAMAGING_GUST_MS = 18;
const MAX_ANOMALY = fieldBound(TEMPERATURE_ANOMALY);

interface Storm {
  key: string;
  /** integer seed of the storm's own draws */
  seed: number;
  startH: number;
  durationH: number;
  lat: number;
  lon: number;
  /** displacement per hour, degrees */
  dLat: number;
  dLon: number;
  intensity: number;
  /** whether the storm forms over land (sea storms bring lightning only) */
  overLand: boolean;
  /** deep-layer shear of its tile and day, 0..1 (convective-ingredients.ts deepShear) */
  shear: number;
}

/** How much steep lapse rates aloft (0..1) add to the buoyancy of the same warm, moist air. */
const LAPSE_GAIN = 0.5;
/** Share of a storm's intensity that makes severe hail and tornadoes without any deep shear. */
const SHEAR_FLOOR = 0.3;
/** Intensity from which a storm can spawn a tornado (with a chance of the deep shear). */
const TORNADO_INTENSITY = 0.75;

/** Sea surface warm enough for deep convection over the ocean, degC (warm pools, ~26-27 degC). */
const WARM_SEA_C = 26;

/** Afternoon temperature estimate of a tile on an event day, degC, or -Infinity if surely cold. */
function afternoonWarmth(lat: number, lon: number, tHours: number, land: number): number {
  // Afternoon heating: ~5 K above the daily mean over land, ~1 K over the sea.
  const clim = climatologyAt(lat, lon, tHours) + 1 + 4 * land;
  const scale = anomalyScale(lat);
  if (clim + scale * MAX_ANOMALY < 20) return -Infinity;
  return clim + scale * noiseAt(TEMPERATURE_ANOMALY, lat, lon, tHours);
}

/** Storms of tile (ti: 0..179 from -90, tj: 0..359 from -180) on event day e (days since 1970). */
function stormsOf(ti: number, tj: number, e: number): Storm[] {
  const lat = -90 + ti + 0.5;
  const lon = -180 + tj + 0.5;
  // Local 15:00 of the event day, the peak of convection.
  const peakH = e * 24 + 15 - lon / 15 + (lon / 15 > 9 ? 24 : 0);
  const land = landFractionAt(lat, lon);
  const warmth = afternoonWarmth(lat, lon, peakH, land);
  if (warmth < 20) return [];
  const overLand = land >= 0.5;
  // Over the sea only warm pools convect (and afternoon heating is small there).
  if (!overLand && warmth < WARM_SEA_C) return [];
  // Deserts (geoclimate.ts) lack the moisture; over land the low levels are as moist as a warm
  // sea upwind or the month's rain climate makes them (convective-ingredients.ts), and steep
  // lapse rates aloft (the lee of high ground) give the same warm, moist air more buoyancy.
  const dryness = drynessAt(lat, lon);
  const moisture = overLand ? lowLevelMoisture(lat, lon, peakH) : 1;
  const humid = (0.5 - 0.5 * noiseAt(DRYNESS_NOISE, lat, lon, peakH)) * (1 - dryness) * moisture;
  const lapse = overLand ? steepLapseRates(lat, lon) : 0;
  const capped = overLand ? marineStability(lat, lon, peakH) : 0;
  const trigger = noiseAt(CONVECTION_NOISE, lat, lon, peakH);
  const buoyancy = ((warmth - 20) / 12) * humid * (1 + LAPSE_GAIN * lapse) * (1 - capped);
  const potential = Math.min(1, buoyancy) + 0.6 * trigger - 0.45;
  const shear = deepShear(lat, peakH);
  if (potential <= 0 || hashUnit(ti, tj, e, 1) > potential * (1 - dryness)) return [];
  const n = 1 + Math.floor(hashUnit(ti, tj, e, 2) * 4 * potential);
  const storms: Storm[] = [];
  const hemi = lat < 0 ? -1 : 1;
  for (let s = 0; s < n; s++) {
    const u = (k: number): number => hashUnit(ti * 360 + tj, e, s, 100 + k);
    const heading = ((60 + 60 * (u(0) - 0.5)) * Math.PI) / 180; // from north, toward ENE
    const speedKmH = 30 + 45 * u(1);
    const cosLat = Math.max(0.2, Math.cos((lat * Math.PI) / 180));
    storms.push({
      key: `${ti}/${tj}/${e}/${s}`,
      seed: Math.floor(u(7) * 4294967296) | 0,
      startH: peakH - 2 + 5 * u(2),
      durationH: 1 + 3 * u(3),
      lat: lat + (u(4) - 0.5),
      lon: lon + (u(5) - 0.5),
      dLat: (hemi * speedKmH * Math.cos(heading)) / KM_PER_DEG,
      dLon: (speedKmH * Math.sin(heading)) / (KM_PER_DEG * cosLat),
      intensity: Math.pow(u(6), 1 / (1 + 2 * potential)),
      overLand,
      shear,
    });
  }
  return storms;
}

/**
 * How far a tornado's track reaches from its touchdown, km: the longest track is about 81 km
 * (docs/decisions/0024-severe-weather.md), so a search by distance reads touchdowns this much
 * farther out and then tests their whole track.
 */
export const TORNADO_REACH_KM = 90;

/** Segments of a tornado track (TRACK_SEGMENTS + 1 points). */
const TRACK_SEGMENTS = 5;
/** Most a track segment turns from the storm's heading, degrees: a tornado's path wanders. */
const TRACK_WANDER_DEG = 20;

/**
 * A tornado's track as [lon, lat] points: from the touchdown, exactly the event's position, then
 * TRACK_SEGMENTS great-circle segments of lengthKm / TRACK_SEGMENTS, each turned from `heading`
 * (radians clockwise from north) by a wander of phase `phase`. Its length along the sphere is
 * lengthKm, up to the rounding of its points to 4 decimals (metres), so a track and its record
 * agree: the record's position is where the track starts and lengthKm is the track's length
 * (docs/decisions/0170-archive-requests.md).
 */
function tornadoTrack(touch: { lat: number; lon: number }, heading: number, lengthKm: number, phase: number): [number, number][] {
  const track: [number, number][] = [[touch.lon, touch.lat]];
  // The angle a segment subtends at the Earth's centre, on the sphere of KM_PER_DEG.
  const delta = (lengthKm / TRACK_SEGMENTS / KM_PER_DEG) * RAD;
  let lat = touch.lat * RAD;
  let lon = touch.lon * RAD;
  for (let k = 1; k <= TRACK_SEGMENTS; k++) {
    const bearing = heading + TRACK_WANDER_DEG * RAD * Math.sin(k + phase);
    // The point at angular distance delta along a great circle of initial bearing `bearing`
    // (the direct problem on the sphere: Williams, Aviation Formulary, "Lat/lon given radial and distance").
    const next = Math.asin(Math.sin(lat) * Math.cos(delta) + Math.cos(lat) * Math.sin(delta) * Math.cos(bearing));
    lon += Math.atan2(Math.sin(bearing) * Math.sin(delta) * Math.cos(lat), Math.cos(delta) - Math.sin(lat) * Math.sin(next));
    lat = next;
    track.push([round4(wrapLon(lon / RAD)), round4(lat / RAD)]);
  }
  return track;
}

function wrapLon(lon: number): number {
  return lon >= 180 ? lon - 360 : lon < -180 ? lon + 360 : lon;
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * Events of one kind produced by one storm. Ids are UUID v5 of their key; `idOf` is applied by the
 * caller only to events it keeps, since hashing every strike of a large query would dominate.
 */
function eventsOfStorm(storm: Storm, kind: SevereKind): AnySevereEvent[] {
  const out: AnySevereEvent[] = [];
  const u = (item: number, k: number): number => hashUnit(storm.seed, item, k, 7);
  const at = (fraction: number, jitter: number, item: number): { t: number; lat: number; lon: number } => {
    const h = storm.durationH * fraction;
    return {
      t: Math.round((storm.startH + h) * HOUR),
      lat: round4(storm.lat + storm.dLat * h + jitter * (u(item, 11) - 0.5)),
      lon: round4(wrapLon(storm.lon + storm.dLon * h + jitter * (u(item, 12) - 0.5))),
    };
  };
  const I = storm.intensity;
  // Large hail and tornadoes come from updrafts that deep shear keeps upright and long-lived
  // (supercells: Johns & Doswell 1992); without shear the same buoyancy gives ordinary
  // thunderstorms, lightning and downburst gusts.
  const S = I * (SHEAR_FLOOR + (1 - SHEAR_FLOOR) * storm.shear);

  if (kind === 'lightning') {
    const n = 10 + Math.floor(150 * I * u(0, 1));
    for (let i = 0; i < n; i++) {
      const p = at(u(1000 + i, 1), 0.1, 1000 + i);
      const ground = u(1000 + i, 2) < 0.25;
      out.push({
        kind: 'lightning',
        id: `lightning/${storm.key}/${i}`,
        timeMs: p.t,
        lat: p.lat,
        lon: p.lon,
        magnitude: Math.round(5 + 75 * Math.pow(u(1000 + i, 3), 2)),
        unit: 'kA',
        strokeType: ground ? 'ground' : 'cloud',
      });
    }
    return out;
  }
  // Hail, gusts, tornadoes and storm reports come from storms over land (reports are of what
  // people on the ground saw); a sea storm leaves lightning only.
  if (!storm.overLand) return out;
  const hail: HailEvent[] = [];
  if (S > 0.4) {
    const n = 1 + Math.floor(6 * (S - 0.4) * u(0, 2) * 2);
    for (let i = 0; i < n; i++) {
      const p = at((i + u(2000 + i, 1)) / n, 0.05, 2000 + i);
      const size = Math.round(6 + 70 * S * S * u(2000 + i, 2));
      hail.push({
        kind: 'hail',
        id: `hail/${storm.key}/${i}`,
        timeMs: p.t,
        lat: p.lat,
        lon: p.lon,
        magnitude: size,
        unit: 'mm',
        probability: Math.round(100 * Math.min(1, size / 40)) / 100,
      });
    }
  }
  const gusts: GustEvent[] = [];
  if (I > 0.3) {
    const n = 1 + Math.floor(3 * u(0, 3));
    for (let i = 0; i < n; i++) {
      const p = at((i + u(3000 + i, 1)) / n, 0.05, 3000 + i);
      const speed = Math.round(10 * (15 + 25 * I * u(3000 + i, 2))) / 10;
      gusts.push({
        kind: 'gust',
        id: `gust/${storm.key}/${i}`,
        timeMs: p.t,
        lat: p.lat,
        lon: p.lon,
        magnitude: speed,
        unit: 'm s-1',
        // a gust whose peak stays under the threshold spent no time above it
        durationMinutes: speed >= DAMAGING_GUST_MS ? Math.round(2 + 28 * u(3000 + i, 3)) : 0,
      });
    }
  }
  const tornadoes: TornadoEvent[] = [];
  // Tornadic supercells need deep wind shear as well as instability: the mid-latitude jet's,
  // which follows the season (convective-ingredients.ts deepShear); weak in the tropics.
  if (I > TORNADO_INTENSITY && u(0, 4) < storm.shear) {
    const ef = Math.min(5, Math.floor(6 * Math.pow(u(4000, 1), 3) * S));
    const lengthKm = Math.round(10 * (1 + (40 * u(4000, 2) * S * (1 + ef)) / 3)) / 10;
    const touch = at(0.3 + 0.4 * u(4000, 3), 0, 4000);
    const cosLat = Math.cos(storm.lat * RAD);
    const speedKmH = Math.hypot(storm.dLat * KM_PER_DEG, storm.dLon * KM_PER_DEG * cosLat);
    const lifeH = lengthKm / Math.max(10, speedKmH);
    // The storm's heading, clockwise from north: atan2 of its eastward and northward motion.
    const heading = Math.atan2(storm.dLon * cosLat, storm.dLat);
    const track = tornadoTrack(touch, heading, lengthKm, 6 * u(4000, 4));
    tornadoes.push({
      kind: 'tornado',
      id: `tornado/${storm.key}/0`,
      timeMs: touch.t,
      endTimeMs: touch.t + Math.round(lifeH * HOUR),
      lat: touch.lat,
      lon: touch.lon,
      magnitude: ef,
      unit: 'EF',
      track,
      lengthKm,
      widthM: Math.round(30 + 300 * (1 + ef) * u(4000, 5)),
    });
  }
  if (kind === 'hail') return hail;
  if (kind === 'gust') return gusts;
  if (kind === 'tornado') return tornadoes;
  for (const h of hail) {
    if (h.magnitude >= SEVERE_HAIL_MM) {
      out.push({
        kind: 'storm_report',
        reportType: 'hail',
        id: `report/${h.id}`,
        timeMs: h.timeMs,
        lat: h.lat,
        lon: h.lon,
        magnitude: h.magnitude,
        unit: 'mm',
        remarks: `Hail ${(h.magnitude / 25.4).toFixed(2)} in reported (synthetic)`,
      });
    }
  }
  for (const g of gusts) {
    if (g.magnitude >= SEVERE_GUST_MS) {
      out.push({
        kind: 'storm_report',
        reportType: 'wind',
        id: `report/${g.id}`,
        timeMs: g.timeMs,
        lat: g.lat,
        lon: g.lon,
        magnitude: g.magnitude,
        unit: 'm s-1',
        remarks: `Thunderstorm wind gust ${Math.round(metresPerSecondToKnots(g.magnitude))} kt (synthetic)`,
      });
    }
  }
  for (const t of tornadoes) {
    out.push({
      kind: 'storm_report',
      reportType: 'tornado',
      id: `report/${t.id}`,
      timeMs: t.timeMs,
      lat: t.lat,
      lon: t.lon,
      magnitude: t.magnitude,
      unit: 'EF',
      remarks: `EF${t.magnitude} tornado, path ${t.lengthKm} km (synthetic)`,
    });
  }
  return out;
}

function inside(lon: number, lat: number, bbox: BBox): boolean {
  return lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3];
}

/**
 * Events of `kind` whose position lies in bbox (for tornadoes: any point of the track) and whose
 * time lies in the range (tornadoes: overlapping it), sorted by time then id.
 */
export function severeEvents<K extends SevereKind>(kind: K, bbox: BBox, range: TimeRange): SevereEvent<K>[] {
  // Storms drift up to ~300 km and start up to a day from their event day's 06Z: search margins.
  const margin = 3;
  const ti0 = Math.max(0, Math.floor(bbox[1] + 90) - margin);
  const ti1 = Math.min(179, Math.floor(bbox[3] + 90) + margin);
  const tj0 = Math.floor(bbox[0] + 180) - margin;
  const tj1 = Math.floor(bbox[2] + 180) + margin;
  const e0 = Math.floor((range.startMs / HOUR - 6) / 24) - 1;
  const e1 = Math.floor((range.endMs / HOUR - 6) / 24) + 1;
  const seen = new Set<number>();
  const out: AnySevereEvent[] = [];
  for (let e = e0; e <= e1; e++) {
    for (let ti = ti0; ti <= ti1; ti++) {
      seen.clear();
      for (let tjr = tj0; tjr <= tj1; tjr++) {
        const tj = ((tjr % 360) + 360) % 360;
        if (seen.has(tj)) continue;
        seen.add(tj);
        for (const storm of stormsOf(ti, tj, e)) {
          for (const ev of eventsOfStorm(storm, kind)) {
            if (ev.kind === 'tornado') {
              if (ev.endTimeMs < range.startMs || ev.timeMs > range.endMs) continue;
              if (!ev.track.some(([x, y]) => inside(x, y, bbox))) continue;
            } else {
              if (ev.timeMs < range.startMs || ev.timeMs > range.endMs) continue;
              if (!inside(ev.lon, ev.lat, bbox)) continue;
            }
            // A storm drifting off the coast keeps its lightning; what falls or is reported lies on land.
            if (ev.kind !== 'lightning' && !isLandAt(ev.lat, ev.lon)) continue;
            ev.id = fieldcastId('severe', ev.id);
            out.push(ev);
          }
        }
      }
    }
  }
  out.sort((a, b) => a.timeMs - b.timeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out as SevereEvent<K>[];
}
