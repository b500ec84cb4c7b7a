import type { Point } from '@fieldcast/geo';
import type { AnySevereEvent, SevereKind } from '@fieldcast/weather';
import type { AlertWeather, IngestedStormReport } from '../src/domain/alert-weather.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const fill = (firstMs: number, lastMs: number, stepMs: number, value: number) =>
  new Float32Array(Math.round((lastMs - firstMs) / stepMs) + 1).fill(value);

/**
 * Weather a test sets by hand: the same value at every place and time of each read, changed
 * between evaluations, so each rule kind can be walked through hold, hold again and clear.
 */
export class ScriptedWeather implements AlertWeather {
  tmax = 20;
  tmin = 10;
  airTemperature = 5;
  precipitationRate = 0;
  referenceEtPerHour = 0.1;
  severeCount = 0;
  /** the storm reports ingested into the archive that every read of them finds */
  ingested: IngestedStormReport[] = [];
  /** every read, for checks of what was asked */
  readonly reads: string[] = [];

  async dailyExtremes(_p: Point, firstDayMs: number, lastDayMs: number) {
    this.reads.push(`daily ${new Date(firstDayMs).toISOString()} ${new Date(lastDayMs).toISOString()}`);
    return { tmax: fill(firstDayMs, lastDayMs, DAY_MS, this.tmax), tmin: fill(firstDayMs, lastDayMs, DAY_MS, this.tmin) };
  }

  async hourly(variable: 'air_temperature' | 'precipitation_rate', _p: Point, firstMs: number, lastMs: number) {
    this.reads.push(`${variable} ${new Date(firstMs).toISOString()} ${new Date(lastMs).toISOString()}`);
    const value = variable === 'air_temperature' ? this.airTemperature : this.precipitationRate;
    return { startMs: firstMs, stepMs: HOUR_MS, values: fill(firstMs, lastMs, HOUR_MS, value) };
  }

  async referenceEt(_p: Point, firstMs: number, lastMs: number) {
    this.reads.push(`et ${new Date(firstMs).toISOString()} ${new Date(lastMs).toISOString()}`);
    return { startMs: firstMs, stepMs: HOUR_MS, values: fill(firstMs, lastMs, HOUR_MS, this.referenceEtPerHour) };
  }

  async severe(kinds: readonly SevereKind[], p: Point, _radiusKm: number, fromMs: number): Promise<AnySevereEvent[]> {
    return Array.from({ length: this.severeCount }, (_, i) => ({
      kind: 'hail' as const,
      id: `00000000-0000-4000-8000-00000000000${i}`,
      timeMs: fromMs + HOUR_MS,
      lon: p.lon,
      lat: p.lat,
      magnitude: 30,
      unit: 'mm' as const,
      probability: 0.5,
    })).filter(() => kinds.includes('hail'));
  }

  async ingestedReports(_p: Point, _radiusKm: number, _fromMs: number, _toMs: number): Promise<IngestedStormReport[]> {
    return this.ingested;
  }
}
