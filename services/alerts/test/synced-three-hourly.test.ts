import { dayOfYear, hourlyReferenceEtSeries, saturationVapourPressureTetens, windSpeedAt2m } from '@fieldcast/science';
import { elevationFromPressure, type GridSource } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { analytic, integral } from '../../../packages/sync/test/runs.js';
import { type AlertWeather, gridAlertWeather } from '../src/domain/alert-weather.js';
import { measure } from '../src/domain/measure.js';

/*
 * The alert rules on a synced run whose steps are hourly and then 3-hourly: GFS steps 108 to
 * 120 h hourly and 123 to 138 h every 3 hours (docs/decisions/0230-sync-sources-and-variables.md),
 * synced from the stand-in archive of packages/sync/test as one-synced-run.ts syncs its run, and
 * served with no synthetic world behind it, so every value read is the run's. The run's store
 * holds every variable on an hourly axis (docs/decisions/0250-synced-runs-staged-then-published.md):
 * instants linear in time between steps, and each hour of a step interval the interval's mean
 * rate, stamped at the hour's end. So the rules read every hour of the 3-hourly stretch, each once:
 * the hour [h, h + 1 h) takes the mean rate stamped h + 1 h, the one over that hour
 * (docs/decisions/0379-time-cells-of-mean-rates.md), and a lowest hour may fall between steps.
 * Expected values are the analytic fields of packages/sync/test/runs.ts (linear in latitude,
 * longitude and time), read at a grid point.
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
/** The run's hourly steps, then its 3-hourly ones (GFS: hourly to 120 h). */
const STEPS = [...Array.from({ length: 37 }, (_, k) => 84 + k), 123, 126, 129, 132, 135, 138];
/** A grid point of the runs' grid (GFS_GRID: 45 to 46 N by 0.25, 10 to 11.75 E by 0.25). */
const AT = { lat: 45.5, lon: 10.25 };

const celsius = (h: number) => analytic.temperatureK(AT.lat, AT.lon, h) - 273.15;

let run: OneSyncedRun;
let source: GridSource;
let weather: AlertWeather;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, {
    archived: STEPS,
    // From 85 h, for the day of ET weather read before a reference-ET rule's first hour: the step
    // before it is read too, for its rates' interval.
    steps: '85-138',
    syncedAtMs: RUN + 140 * H,
    now: () => RUN + 118 * H,
    synthetic: false,
  });
  source = run.weather;
  weather = gridAlertWeather(source);
}, 60_000);

afterAll(() => run?.close());

describe('what the rules read of a 3-hourly stretch', () => {
  it('every hour, on an hourly step: instants between steps linear in time, a rate the mean of its step interval', async () => {
    const t = await weather.hourly('air_temperature', AT, RUN + 119 * H, RUN + 126 * H);
    expect([t.startMs, t.stepMs, t.values.length]).toEqual([RUN + 119 * H, H, 8]);
    Array.from(t.values).forEach((v, k) => expect(Math.abs(v - celsius(119 + k))).toBeLessThan(0.01));
    const p = await weather.hourly('precipitation_rate', AT, RUN + 119 * H, RUN + 126 * H);
    expect([p.startMs, p.stepMs, p.values.length]).toEqual([RUN + 119 * H, H, 8]);
    // The hours from 119 h, each [h, h + 1 h): 120 to 122 h lie in the step interval (120 h, 123 h],
    // 123 to 125 h in (123 h, 126 h], 126 h in (126 h, 129 h]; each takes its interval's mean rate.
    const rate = analytic.precipitation(AT.lat);
    const mean = (from: number, to: number) => integral({ a: rate.c, b: rate.d }, from, to) / (to - from);
    const expected = [mean(119, 120), ...Array(3).fill(mean(120, 123)), ...Array(3).fill(mean(123, 126)), mean(126, 129)];
    Array.from(p.values).forEach((v, k) => expect(Math.abs(v - expected[k]!)).toBeLessThan(1e-3));
  });
});

describe('the measures over a 3-hourly stretch (docs/decisions/0272-alert-rule-kinds.md)', () => {
  it('frost: the lowest hour may lie between two steps', async () => {
    // From 121:30 the next six hours are 122 to 127 h; the run warms 0.25 K an hour, so the lowest
    // is 122 h, between the steps 120 and 123 h, where the curve is linear between them (0250).
    const m = await measure({ kind: 'frost', threshold: 0, hours: 6 }, AT, RUN + 121.5 * H, weather);
    expect(m.atMs).toBe(RUN + 122 * H);
    expect(Math.abs(m.value - celsius(122))).toBeLessThan(0.01);
  });

  it('precipitation: the next hours are the hours after now, each counted once at its mean rate', async () => {
    // From 117:30 the next nine hours are 118 to 127 h, each [h, h + 1 h): the rates stamped 119
    // to 127 h, each the mean over the hour ending at its stamp (0250): (118 h, 120 h] hourly, then
    // (120 h, 126 h] as two 3-hour intervals, and the hour (126 h, 127 h] at the mean rate of the
    // interval (126 h, 129 h] that holds it. A mean rate over an interval times its hours is the
    // interval's total, so the sum is the integral of the analytic rate over (118 h, 126 h] and a
    // third of (126 h, 129 h], in mm: not the hour before now, and the last hour counted.
    const m = await measure({ kind: 'precipitation', threshold: 0, hours: 9 }, AT, RUN + 117.5 * H, weather);
    const rate = { a: analytic.precipitation(AT.lat).c, b: analytic.precipitation(AT.lat).d };
    expect(Math.abs(m.value - (integral(rate, 118, 126) + integral(rate, 126, 129) / 3))).toBeLessThan(2e-3);
  });

  it('reference-et: the 24 hours of a day, 15 of them in the 3-hourly stretch, each hour as the ET product computes it', async () => {
    // At 136:20 a one-day rule sums the hours starting 112 to 135 h: 112 to 120 h from hourly
    // steps, 121 to 135 h from 3-hourly ones, each hour as the insight area's series computes it
    // (docs/interface.md §12): ASCE-EWRI (2005) eq. 1 on an hourly time step from the hour's mean
    // weather, the night and low-sun hours carrying the cloudiness of the day before read with
    // them (docs/decisions/0110-low-sun-cloudiness.md). The store's instants are linear in time
    // between steps, so an hour's mean is the value at its middle for the analytic temperature and
    // dewpoint, and the mean of its two stamps for the wind; its shortwave is the mean rate of
    // the step interval that holds it (0250, 0379). Wind is the 10 m speed of the steps taken to
    // 2 m by ASCE-EWRI 2005 eq. 33 (FAO-56 eq. 47), as the sync converts it.
    const wind10 = (h: number) => Math.hypot(analytic.u10(AT.lat, AT.lon, h), analytic.v10(AT.lat, AT.lon));
    const stepAtOrBefore = (h: number) => STEPS.filter((s) => s <= h).at(-1)!;
    const stepAfter = (h: number) => STEPS.find((s) => s > h)!;
    const between = (f: (s: number) => number, h: number) => {
      const [s0, s1] = [stepAtOrBefore(h), stepAfter(h)];
      return f(s0) + ((f(s1) - f(s0)) * (h - s0)) / (s1 - s0);
    };
    const wind = (h: number) => between((s) => windSpeedAt2m(wind10(s), 10), h);
    const shortwave = (h: number) => {
      // The interval (s0, s1] of steps that holds the hour (h, h + 1 h].
      const s1 = STEPS.find((s) => s >= h + 1)!;
      const s0 = STEPS.filter((s) => s < s1).at(-1)!;
      return integral(analytic.shortwave(AT.lat, AT.lon), s0, s1) / (s1 - s0);
    };
    // The run holds no ground height: each hour the height its own pressure (the mean of its two stamps) implies.
    const pressure = await source.pointSeries('surface_air_pressure', AT.lon, AT.lat, { startMs: RUN + 88 * H, endMs: RUN + 136 * H });
    const elevation = (h: number) => elevationFromPressure(((pressure.values[h - 88] as number) + (pressure.values[h - 87] as number)) / 2);
    const inputs = [];
    for (let h = 88; h <= 135; h++) {
      const mid = new Date(RUN + (h + 0.5) * H);
      inputs.push({
        temperature: celsius(h + 0.5),
        actualVapourPressure: saturationVapourPressureTetens(analytic.dewpointK(AT.lat, AT.lon, h + 0.5) - 273.15),
        solarRadiation: shortwave(h) * 0.0036,
        windSpeed: (wind(h) + wind(h + 1)) / 2,
        elevation: elevation(h),
        latitude: AT.lat,
        longitude: AT.lon,
        dayOfYear: dayOfYear(mid),
        midpointHour: mid.getUTCHours() + 0.5,
      });
    }
    const expected = hourlyReferenceEtSeries(inputs)
      .slice(24)
      .reduce((sum, r) => sum + r.et, 0);
    const m = await measure({ kind: 'reference-et', threshold: 0, days: 1 }, AT, RUN + 136 * H + 20 * 60_000, weather);
    expect(Math.abs(m.value - expected)).toBeLessThan(5e-3);
  });
});
