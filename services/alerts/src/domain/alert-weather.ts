import { boxesWithin, distanceToTrackKm, haversineKm, type Point } from '@fieldcast/geo';
import { shortCropEtOfHour } from '@fieldcast/science';
import {
  type AnySevereEvent,
  type GridSource,
  etHourInputsAt,
  hourMeans,
  hoursReadRange,
  severeEvents,
  type SevereKind,
  shortCropEtHoursAt,
  TORNADO_REACH_KM,
} from '@fieldcast/weather';

const HOUR_MS = 3_600_000;

/** Hourly values from `startMs`, one per `stepMs`. */
export interface HourlyValues {
  startMs: number;
  stepMs: number;
  values: ArrayLike<number>;
}

/**
 * A storm report ingested into the archive, as the area's copy keeps it
 * (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md): a `storm_report` whatever
 * the type of the file it came from.
 */
export interface IngestedStormReport {
  id: string;
  /** the file's type */
  reportType: 'hail' | 'wind' | 'tornado';
  timeMs: number;
  lat: number;
  lon: number;
  /** mm, m s-1 or EF by reportType; null where the report gave none */
  magnitude: number | null;
}

/** Where the storm reports ingested into the archive are read: the area's copy of them. */
export interface IngestedReportLookup {
  near(p: Point, radiusKm: number, fromMs: number, toMs: number): Promise<IngestedStormReport[]>;
}

/**
 * The weather alert rules read, at one point (a field's or asset's centroid), in the units of
 * docs/architecture.md §6. The service reads it from its GridSource and the synthetic world's
 * severe weather (gridAlertWeather); tests give a scripted one. Ranges are inclusive, as a
 * GridSource's.
 */
export interface AlertWeather {
  /** daily maximum and minimum 2 m air temperature, °C, of the days from firstDayMs to lastDayMs (UTC midnights) */
  dailyExtremes(p: Point, firstDayMs: number, lastDayMs: number): Promise<{ tmax: ArrayLike<number>; tmin: ArrayLike<number> }>;
  /**
   * The 2 m air temperature (°C) at the source's stamps from firstMs to lastMs, or the mean
   * precipitation rate (mm h-1) of each hour [h, h + 1 h) starting from firstMs to lastMs
   */
  hourly(variable: 'air_temperature' | 'precipitation_rate', p: Point, firstMs: number, lastMs: number): Promise<HourlyValues>;
  /**
   * Short-crop reference ET, mm h-1, of the hour [t, t + 1 h) at each of the source's stamps t
   * from firstMs to lastMs: one value per step, standing for the step's hours
   */
  referenceEt(p: Point, firstMs: number, lastMs: number): Promise<HourlyValues>;
  /** the severe-weather events of these kinds within radiusKm of p (a tornado: any point of its track) between the instants */
  severe(kinds: readonly SevereKind[], p: Point, radiusKm: number, fromMs: number, toMs: number): Promise<AnySevereEvent[]>;
  /** the storm reports ingested into the archive within radiusKm of p between the instants */
  ingestedReports(p: Point, radiusKm: number, fromMs: number, toMs: number): Promise<IngestedStormReport[]>;
}

/**
 * The alert weather of a GridSource: its point reads, the hourly short-crop ET the insight area
 * serves (`shortCropEtHoursAt`: each hour's mean weather, the low sun's cloudiness carried, the
 * wind at its height), and the synthetic world's severe weather, the events behind the archive's
 * types; beside them the storm reports ingested into the archive, from `reports` (none where not
 * given). An hour's mean
 * rate comes from the stamps whose intervals it overlaps
 * (docs/decisions/0379-time-cells-of-mean-rates.md).
 */
export function gridAlertWeather(source: GridSource, reports: IngestedReportLookup = { near: async () => [] }): AlertWeather {
  const hasAltitude = source.variables().some((v) => v.id === 'surface_altitude');
  return {
    async dailyExtremes(p, firstDayMs, lastDayMs) {
      const { tmax, tmin } = await source.dailyExtremesAt(p.lon, p.lat, { startMs: firstDayMs, endMs: lastDayMs });
      return { tmax: tmax.values, tmin: tmin.values };
    },
    async hourly(variable, p, firstMs, lastMs) {
      if (variable === 'air_temperature') {
        const s = await source.pointSeries(variable, p.lon, p.lat, { startMs: firstMs, endMs: lastMs });
        return { startMs: s.startMs, stepMs: s.stepMs, values: s.values };
      }
      // Each hour's own precipitation, whichever interval the source's stamps stand for (grid/time-cells.ts).
      const range = hoursReadRange(source, variable, p, firstMs, lastMs);
      const s = await source.pointSeries(variable, p.lon, p.lat, range);
      return { startMs: firstMs, stepMs: HOUR_MS, values: hourMeans(s, firstMs, Math.round((lastMs - firstMs) / HOUR_MS) + 1) };
    },
    async referenceEt(p, firstMs, lastMs) {
      // The ET product's hours, as the insight area serves them (docs/interface.md §12).
      const product = await shortCropEtHoursAt(source, p.lon, p.lat, firstMs, Math.round((lastMs - firstMs) / HOUR_MS) + 1);
      if (product) return { startMs: firstMs, stepMs: HOUR_MS, values: product.values };
      // A store whose step is longer than an hour, which the product does not read: the ET of the
      // hour starting at each stamp, standing for its step's hours.
      const [hours, altitude] = await Promise.all([
        etHourInputsAt(source, p.lon, p.lat, firstMs, lastMs),
        hasAltitude
          ? source.pointSeries('surface_altitude', p.lon, p.lat, { startMs: source.coverage().startMs, endMs: source.coverage().startMs })
          : null,
      ]);
      // Without a ground height the standard's pressure is sea level's (ASCE-EWRI 2005 eq. 3 at z = 0).
      const elevation = altitude?.values[0] ?? 0;
      const values = hours.airTemperature.map((airTemperature, k) =>
        shortCropEtOfHour({
          airTemperature,
          dewpoint: hours.dewpoint[k]!,
          shortwave: hours.shortwave[k]!,
          windSpeed: hours.windSpeed[k]!,
          elevation,
          latitude: p.lat,
          longitude: p.lon,
          hourStartMs: hours.startMs + k * hours.stepMs,
        }),
      );
      return { startMs: hours.startMs, stepMs: hours.stepMs, values };
    },
    async severe(kinds, p, radiusKm, fromMs, toMs) {
      const range = { startMs: fromMs, endMs: toMs };
      return kinds.flatMap((kind) => {
        // The circle's boxes (split at the antimeridian), grown for a tornado by its track's reach:
        // its track can pass within the radius from a touchdown farther out, and the world finds a
        // tornado by a point of its track in the box.
        const reach = kind === 'tornado' ? TORNADO_REACH_KM : 0;
        const boxes = boxesWithin({ south: p.lat, north: p.lat, west: p.lon, east: p.lon }, radiusKm + reach);
        const found = new Map<string, AnySevereEvent>();
        for (const b of boxes)
          for (const e of severeEvents(kind, [b.west, b.south, b.east, b.north], range))
            if (distanceKm(p, e) <= radiusKm) found.set(e.id, e);
        return [...found.values()];
      });
    },
    ingestedReports: (p, radiusKm, fromMs, toMs) => reports.near(p, radiusKm, fromMs, toMs),
  };
}

/** How far an event passed from p, km: a tornado by its track, the others by their position. */
function distanceKm(p: Point, e: AnySevereEvent): number {
  return e.kind === 'tornado' ? distanceToTrackKm(p, e.track) : haversineKm(p, { lat: e.lat, lon: e.lon });
}

/**
 * The weather of one evaluation batch: each distinct read is made once however many rules of the
 * batch ask it (rules on one field share their reads). Dropped with the batch, so an evaluation's
 * memory is bounded by its batch, not by the number of rules.
 */
export function sharedReads(weather: AlertWeather): AlertWeather {
  const kept = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let p = kept.get(key) as Promise<T> | undefined;
    if (!p) {
      p = read();
      kept.set(key, p);
    }
    return p;
  };
  return {
    dailyExtremes: (p, a, b) => once(`d ${p.lat} ${p.lon} ${a} ${b}`, () => weather.dailyExtremes(p, a, b)),
    hourly: (v, p, a, b) => once(`h ${v} ${p.lat} ${p.lon} ${a} ${b}`, () => weather.hourly(v, p, a, b)),
    referenceEt: (p, a, b) => once(`e ${p.lat} ${p.lon} ${a} ${b}`, () => weather.referenceEt(p, a, b)),
    severe: (k, p, r, a, b) => once(`s ${k.join(',')} ${p.lat} ${p.lon} ${r} ${a} ${b}`, () => weather.severe(k, p, r, a, b)),
    ingestedReports: (p, r, a, b) => once(`r ${p.lat} ${p.lon} ${r} ${a} ${b}`, () => weather.ingestedReports(p, r, a, b)),
  };
}
