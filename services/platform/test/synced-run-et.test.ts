import { fieldcastId } from '@fieldcast/ids';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { shortCropEtOfHour } from '@fieldcast/science';
import { type GridSource, meanOver, type PointSeries } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { analytic, integral } from '../../../packages/sync/test/runs.js';
import { platformService } from '../src/definition.js';
import { clock, get, H, now } from './helpers.js';

/*
 * The ET datapoint on a synced run (docs/decisions/0250-synced-runs-staged-then-published.md): the
 * run's mean shortwave is stamped at the end of its hour, so the frame's hour [t, t + 1 h) takes
 * the mean stamped t + 1 h, the sun of that very hour (docs/decisions/0379-time-cells-of-mean-rates.md),
 * with the instants at t: the value the tiles area's ET pixel and the alerts' one-hour ET give for
 * the same place and hour (docs/decisions/0124-datapoints.md). The run is the stand-in archive's
 * GFS run of packages/sync/test, hourly steps, with the synthetic world behind it for the ground
 * height; the expected value is computed here from the source's own reads.
 */
const RUN = Date.UTC(2026, 11, 3, 0);
/** A grid point of the run's grid (45 to 46 N, 10 to 11.75 E by 0.25). */
const AT = { lat: 45.5, lon: 10.25 };
/** The frame's hour: 15:00Z, sunlit at AT. */
const T = RUN + 111 * H;

const options: TestFleetOptions = { now };
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
  options.weather = source;
}, 60_000);

afterAll(() => run?.close());

const t = useTestFleet([platformService], options);

/** ET of the hour from T at a place with the given shortwave, the other inputs the source's at T. */
async function etWith(at: { lon: number; lat: number }, shortwave: (s: PointSeries) => number): Promise<number> {
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

it("the ET datapoint takes the shortwave of the frame's hour", async () => {
  clock.ms = RUN + 115 * H;
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

  const frame = fieldcastId('frame', 'evapotranspiration-short-crop', new Date(T).toISOString().replace('.000Z', 'Z'));
  const res = await get(t, t.alice, `/frames/${frame}/datapoint/${AT.lat}/${AT.lon}`);
  expect(res.status).toBe(200);
  // Rounded to 0.001 (0124).
  expect(res.body.value).toBeCloseTo(expected, 3);
});

it('on the synthetic world behind the run, the ET datapoint takes the mean of the two centred means of its hour', async () => {
  clock.ms = RUN + 115 * H;
  // Ames, Iowa: 09:00 local on a December morning, sunlit, off the run's grid; the half hour before is off by more than the rounding.
  const ames = { lat: 42.0308, lon: -93.6319 };
  const expected = await etWith(ames, (s) => meanOver(s, T, T + H));
  const halfHourBefore = await etWith(ames, (s) => s.values[(T - s.startMs) / s.stepMs]!);
  expect(Math.abs(halfHourBefore - expected)).toBeGreaterThan(0.002);

  const frame = fieldcastId('frame', 'evapotranspiration-short-crop', new Date(T).toISOString().replace('.000Z', 'Z'));
  const res = await get(t, t.alice, `/frames/${frame}/datapoint/${ames.lat}/${ames.lon}`);
  expect(res.status).toBe(200);
  expect(res.body.value).toBeCloseTo(expected, 3);
});
