import type { HourlyQuery, HourlySeries } from '@fieldcast/schemas';
import { dayOfYear, hourlyReferenceEtSeries, saturationVapourPressureTetens, windSpeedAt2m } from '@fieldcast/science';
import { elevationFromPressure, type GridSource } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { analytic, integral } from '../../../packages/sync/test/runs.js';
import { hourlySeriesJson } from '../src/domain/hourly-series.js';

/*
 * Short-crop ET on a synced run (docs/decisions/0250-synced-runs-staged-then-published.md): the
 * run's mean shortwave is stamped at the end of its hour, so the hour [h, h + 1 h) of a series
 * entry (docs/decisions/0111-hourly-series.md) takes the mean stamped h + 1 h, the sun of that very
 * hour (docs/decisions/0379-time-cells-of-mean-rates.md), while the instants are the means of the
 * hour's two stamps. The run is the stand-in archive's GFS run of packages/sync/test, hourly steps,
 * served with no synthetic world behind it; expected values are its analytic fields at a grid point.
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const AT = { lat: 45.5, lon: 10.25 };
/** Hours since the run of the series' first and last entries; the 24 before the first are read too (0111). */
const FIRST = 110;
const LAST = 117;

let run: OneSyncedRun;
let source: GridSource;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, {
    archived: Array.from({ length: 37 }, (_, k) => 84 + k),
    steps: '85-120',
    syncedAtMs: RUN + 121 * H,
    now: () => RUN + 121 * H,
    synthetic: false,
  });
  source = run.weather;
}, 60_000);

afterAll(() => run?.close());

it('each hour of ET takes the shortwave of that hour', async () => {
  const query: HourlyQuery = {
    firstMs: RUN + FIRST * H,
    lastMs: RUN + LAST * H,
    startTime: 'a',
    endTime: 'b',
    defaulted: false,
    unit: 'millimeters',
  };
  const out = JSON.parse(
    await hourlySeriesJson(source, 'evapotranspiration', { latitude: AT.lat, longitude: AT.lon }, query),
  ) as HourlySeries;
  // No ground height in the run: each hour the height its own pressure implies (0111, 0475).
  const pressure = await source.pointSeries('surface_air_pressure', AT.lon, AT.lat, {
    startMs: RUN + (FIRST - 24) * H,
    endMs: RUN + (LAST + 1) * H,
  });
  const elevation = (h: number) =>
    elevationFromPressure(((pressure.values[h - FIRST + 24] as number) + (pressure.values[h - FIRST + 25] as number)) / 2);
  const wind = (h: number) => windSpeedAt2m(Math.hypot(analytic.u10(AT.lat, AT.lon, h), analytic.v10(AT.lat, AT.lon)), 10);
  const inputs = [];
  for (let h = FIRST - 24; h <= LAST; h++) {
    const mid = new Date(RUN + (h + 0.5) * H);
    inputs.push({
      // Instants linear in time: the mean of the hour's two stamps is the value at its middle.
      temperature: analytic.temperatureK(AT.lat, AT.lon, h + 0.5) - 273.15,
      actualVapourPressure: saturationVapourPressureTetens(analytic.dewpointK(AT.lat, AT.lon, h + 0.5) - 273.15),
      // The hour's own mean shortwave, MJ m-2 h-1.
      solarRadiation: integral(analytic.shortwave(AT.lat, AT.lon), h, h + 1) * 0.0036,
      windSpeed: (wind(h) + wind(h + 1)) / 2,
      elevation: elevation(h),
      latitude: AT.lat,
      longitude: AT.lon,
      dayOfYear: dayOfYear(mid),
      midpointHour: mid.getUTCHours() + 0.5,
    });
  }
  const byHand = hourlyReferenceEtSeries(inputs)
    .slice(24)
    .map((r) => r.et);
  expect(out.series).toHaveLength(LAST - FIRST + 1);
  // Within the served rounding (0.0005 mm/h) and the packing of the archive's GRIB fields (about
  // 0.0003 mm/h here); the shortwave of the hour before, half an hour early, is 0.0012 mm/h or more off.
  out.series.forEach((e, k) => expect(Math.abs(e.value - byHand[k]!)).toBeLessThanOrEqual(0.0008));
});

it('a series whose 24 hours before it no store holds, the world off: refused saying why those hours are read', async () => {
  // The run's first stamp is 85 h: the series from 100 h reads from 76 h.
  const query: HourlyQuery = {
    firstMs: RUN + 100 * H,
    lastMs: RUN + 101 * H,
    startTime: 'a',
    endTime: 'b',
    defaulted: false,
    unit: 'millimeters',
  };
  const refused = hourlySeriesJson(source, 'evapotranspiration', { latitude: AT.lat, longitude: AT.lon }, query);
  await expect(refused).rejects.toMatchObject({ code: 'not_synced' });
  await expect(refused).rejects.toThrow(
    /; the stores hold .*\. Short-crop ET of an hour reads the weather from 24 hours before the first hour asked/,
  );
});
