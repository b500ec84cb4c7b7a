import { shortCropEtOfHour } from '@fieldcast/science';
import { type GridSource, meanOver } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { analytic, integral } from '../../../packages/sync/test/runs.js';
import { evapotranspirationReader } from '../src/domain/evapotranspiration.js';

/*
 * The ET layer on a synced run (docs/decisions/0250-synced-runs-staged-then-published.md): the
 * run's mean shortwave is stamped at the end of its hour, so the frame's hour [t, t + 1 h) takes
 * the mean stamped t + 1 h, the sun of that very hour (docs/decisions/0379-time-cells-of-mean-rates.md),
 * with the instants at t: the value the platform area's datapoint and the alerts' one-hour ET give
 * for the same place and hour (docs/decisions/0124-datapoints.md). The run is the stand-in
 * archive's GFS run of packages/sync/test, hourly steps, with the synthetic world behind it for
 * the ground height; the expected value is computed here from the source's own reads.
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
/** A grid point of the run's grid (45 to 46 N, 10 to 11.75 E by 0.25). */
const AT = { lat: 45.5, lon: 10.25 };
/** The frame's hour: 15:00Z, sunlit at AT. */
const T = RUN + 111 * H;

let run: OneSyncedRun;
let source: GridSource;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, {
    archived: Array.from({ length: 7 }, (_, k) => 108 + k),
    steps: '109-114',
    syncedAtMs: RUN + 115 * H,
    now: () => RUN + 115 * H,
  });
  source = run.weather;
}, 60_000);

afterAll(() => run?.close());

/** ET of the hour from T at a place with the given shortwave, the other inputs the source's at T. */
async function etWith(
  at: { lon: number; lat: number },
  shortwave: (s: Awaited<ReturnType<GridSource['etInputsAt']>>['shortwave']) => number,
): Promise<number> {
  const inputs = await source.etInputsAt(at.lon, at.lat, { startMs: T - 2 * H, endMs: T + 2 * H });
  const ground = source.coverage().startMs;
  const elevation = await source.pointSeries('surface_altitude', at.lon, at.lat, { startMs: ground, endMs: ground });
  const k = (T - inputs.airTemperature.startMs) / inputs.airTemperature.stepMs;
  return shortCropEtOfHour({
    airTemperature: inputs.airTemperature.values[k]!,
    dewpoint: inputs.dewpoint.values[k]!,
    shortwave: shortwave(inputs.shortwave),
    windSpeed: inputs.windSpeed.values[k]!,
    elevation: elevation.values[0]!,
    latitude: at.lat,
    longitude: at.lon,
    hourStartMs: T,
  });
}

it('an ET pixel takes the shortwave of its hour, read as a point and from a band window', async () => {
  const sw = await source.pointSeries('surface_downwelling_shortwave_flux_in_air', AT.lon, AT.lat, {
    startMs: T - 2 * H,
    endMs: T + 2 * H,
  });
  // The hour's own mean, the run's analytic sun over [111 h, 112 h] (within the GRIB packing).
  expect(meanOver(sw, T, T + H)).toBeCloseTo(integral(analytic.shortwave(AT.lat, AT.lon), 111, 112), 0);
  const expected = await etWith(AT, (s) => meanOver(s, T, T + H));
  // The shortwave stamped at the hour's start, the hour before's, is off by more than the datapoint's rounding.
  const hourBefore = await etWith(AT, (s) => s.values[(T - s.startMs) / s.stepMs]!);
  expect(Math.abs(hourBefore - expected)).toBeGreaterThan(0.001);

  const reader = evapotranspirationReader(source, T, 'linear');
  expect(await reader.point(AT.lon, AT.lat)).toBeCloseTo(expected, 5);
  const band = await reader.window([10, 45, 11, 46]);
  expect(band!(AT.lon, AT.lat)).toBeCloseTo(expected, 5);
});

it('on the synthetic world behind the run, an ET pixel takes the mean of the two centred means of its hour', async () => {
  // Ames, Iowa: 09:00 local on a December morning, sunlit, off the run's grid; the half hour before is off by more than the rounding.
  const ames = { lat: 42.0308, lon: -93.6319 };
  const expected = await etWith(ames, (s) => meanOver(s, T, T + H));
  const halfHourBefore = await etWith(ames, (s) => s.values[(T - s.startMs) / s.stepMs]!);
  expect(Math.abs(halfHourBefore - expected)).toBeGreaterThan(0.002);

  const reader = evapotranspirationReader(source, T, 'linear');
  expect(await reader.point(ames.lon, ames.lat)).toBeCloseTo(expected, 5);
  const band = await reader.window([-93.7, 42, -93.6, 42.1]);
  expect(band!(ames.lon, ames.lat)).toBeCloseTo(expected, 5);
  // Below the native zoom: one point grid of the pixels (sampling.ts).
  const points = await reader.points(Float64Array.of(ames.lat), Float64Array.of(ames.lon));
  expect(points).not.toBeNull();
  expect(points![0]).toBeCloseTo(expected, 5);
});
