import { useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, GridRequestError, SyntheticSource, type PointSeries, type TimeRange, type VariableId } from '@fieldcast/weather';
import { modelService } from '../src/definition.js';
import { get, HOUR, TestClock } from './helpers.js';

/*
 * Statistics of a hand-computable series (spec 2.8; docs/decisions/0009-statistics-mode.md). The
 * variable is clear-sky radiation, whose forecast has no error (docs/decisions/0141-forecast-error-model.md),
 * so the series is the weather's values as they are, here a table.
 */
const INIT = Date.parse('2026-05-01T06:00:00Z');
const TABLE = [1.04, 2.01, 1.96, 3, 10.26, Number.NaN, 10.26];
/** At 30° N: values that round to distinct tenths, the smallest tenth (-4.6) below the minimum. */
const COLD_TABLE = [-4.56, -4.55, 0.96, -4.04, 0.5, -1.23, 0.07];
/**
 * At 31° N: pairs whose exact mean lies on a half hundredth that binary floating point puts just
 * below it ((0.01 + 0.06) / 2 is 0.034999... as a double), and negative ones.
 */
const HALF_TABLE = [0.01, 0.06, 0.29, 0, -20, -19.95, 0.4];
const CLEAR_SKY: VariableId = 'surface_downwelling_shortwave_flux_in_air_assuming_clear_sky';

/** The synthetic world, except clear-sky radiation: TABLE hour by hour from INIT. */
class TableWorld extends SyntheticSource {
  /** clear-sky reads, for checking what the service reads */
  reads = 0;

  override async pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    if (variable !== CLEAR_SKY) return super.pointSeries(variable, lon, lat, range);
    this.reads++;
    if (lat === -89) throw new GridRequestError('out_of_coverage', 'the table covers no place this far south');
    const n = (range.endMs - range.startMs) / HOUR + 1;
    const table = lat === 30 ? COLD_TABLE : lat === 31 ? HALF_TABLE : TABLE;
    const values = Float32Array.from({ length: n }, (_, i) => table[(range.startMs - INIT) / HOUR + i] ?? Number.NaN);
    return { variable, units: 'W m-2', startMs: range.startMs, stepMs: HOUR, values, productOf: () => 'table' };
  }
}

const model = (name: string, stepHours: number) => ({
  name,
  description: `hand-computable, every ${stepHours} h`,
  source: 'table',
  runEveryHours: 6,
  horizonHours: 6,
  stepHours,
  publishDelayMinutes: 60,
  retentionHours: 24,
  variables: [
    {
      name: 'clearSky',
      description: 'clear-sky radiation',
      unit: { description: 'watts per square meter', label: 'W/m²' },
      variable: CLEAR_SKY,
    },
  ],
});
const catalog = createCatalog({ models: [model('hand', 1), model('hand-2h', 2)] });
const clock = new TestClock(INIT + 2 * HOUR);
const world = new TableWorld();
const t = useTestFleet([modelService], { now: clock.now, weather: world, catalog });
const app = () => t.fleet.app('model');

async function series(modelName: string, query = '', point = '40/-100') {
  const runs = await get(app(), t.alice, `/models/${modelName}/forecasts?limit=1`);
  expect(runs.body[0].initTime).toBe('2026-05-01T06:00:00.000Z');
  return get(app(), t.alice, `/forecasts/${runs.body[0].id}/variables/clearSky/timeseries/${point}${query}`);
}

describe('statistics of a hand-computable series', () => {
  it("mean, median, mode at the series' two decimals, and the extremes at their first validTime; a missing value is null and skipped", async () => {
    const res = await series('hand');
    expect(res.status).toBe(200);
    // Float32 storage of the table, then two decimals: the table's values again.
    expect(res.body.series.map((p: { value: number | null }) => p.value)).toEqual([1.04, 2.01, 1.96, 3, 10.26, null, 10.26]);
    // Present: 1.04 + 2.01 + 1.96 + 3 + 10.26 + 10.26 = 28.53 over 6 = 4.755, 4.76 at two decimals
    expect(res.body.mean).toBe(4.76);
    // Sorted 1.04, 1.96, 2.01, 3, 10.26, 10.26: the mean of the middle two, (2.01 + 3) / 2 = 2.505, 2.51
    expect(res.body.median).toBe(2.51);
    // At the series' two decimals: 10.26 twice, every other value once
    expect(res.body.mode).toBe(10.26);
    expect(res.body.minimum).toEqual({ validTime: '2026-05-01T06:00:00.000Z', value: 1.04 });
    // 10.26 first at lead 4 h (and again at 6 h)
    expect(res.body.maximum).toEqual({ validTime: '2026-05-01T10:00:00.000Z', value: 10.26 });
    expect(res.body.unit).toEqual({ description: 'watts per square meter', label: 'W/m²' });
  });

  it('an odd count: the middle value; limit takes the first values', async () => {
    const res = await series('hand', '?limit=5');
    // 1.04, 2.01, 1.96, 3, 10.26: sum 18.27, mean 3.654; sorted middle 2.01; mode 1.04 (each once, the smallest wins)
    expect(res.body.mean).toBe(3.65);
    expect(res.body.median).toBe(2.01);
    expect(res.body.mode).toBe(1.04);
    expect(res.body.maximum).toEqual({ validTime: '2026-05-01T10:00:00.000Z', value: 10.26 });
  });

  it('a model with a 2-hour step reads every other hour', async () => {
    const res = await series('hand-2h');
    expect(res.body.series).toEqual([
      { validTime: '2026-05-01T06:00:00.000Z', value: 1.04 },
      { validTime: '2026-05-01T08:00:00.000Z', value: 1.96 },
      { validTime: '2026-05-01T10:00:00.000Z', value: 10.26 },
      { validTime: '2026-05-01T12:00:00.000Z', value: 10.26 },
    ]);
    // 1.04, 1.96, 10.26, 10.26: mean 23.52 / 4 = 5.88; median (1.96 + 10.26) / 2 = 6.11; mode 10.26 (twice)
    expect(res.body.mean).toBe(5.88);
    expect(res.body.median).toBe(6.11);
    expect(res.body.mode).toBe(10.26);
  });

  it('the mode is a value of the series, never a rounding of one outside its range', async () => {
    const res = await series('hand', '', '30/-100');
    const values = res.body.series.map((p: { value: number | null }) => p.value);
    expect(values).toEqual(COLD_TABLE);
    // Each value once: the smallest, -4.56, which is also the minimum (at tenths it would be -4.6).
    expect(res.body.mode).toBe(-4.56);
    expect(values).toContain(res.body.mode);
    expect(res.body.mode).toBeGreaterThanOrEqual(res.body.minimum.value);
  });

  it('a mean or median on a half hundredth rounds as the exact decimal does, halves toward +∞ (docs/decisions/0383-series-statistics-exact.md)', async () => {
    const window = (first: number, count: number) => `?start=${new Date(INIT + first * HOUR).toISOString()}&limit=${count}`;
    const stats = async (first: number, count: number) => {
      const res = await series('hand', window(first, count), '31/-100');
      expect(res.status).toBe(200);
      return [res.body.mean, res.body.median];
    };
    // 0.01 and 0.06: 0.035 exactly, 0.04 (as a caller adds 1 and 6 hundredths and halves them)
    expect(await stats(0, 2)).toEqual([0.04, 0.04]);
    // 0.29 and 0: 0.145, 0.15
    expect(await stats(2, 2)).toEqual([0.15, 0.15]);
    // -20 and -19.95: -19.975, toward +∞ -19.97, as Math.round rounds the served values and the mode bins
    expect(await stats(4, 2)).toEqual([-19.97, -19.97]);
    // Seven values: the sum -39.19 is exact in hundredths; -5.598..., -5.6; the median 0.01
    expect(await stats(0, 7)).toEqual([-5.6, 0.01]);
  });
});

describe('computed series are kept (docs/decisions/0143-model-series-cache.md)', () => {
  it('the same run, variable, point and valid times are computed once; anything else is computed', async () => {
    const first = await series('hand', '', '41/-101');
    const reads = world.reads;
    expect(await series('hand', '', '41/-101')).toMatchObject({ status: 200, body: first.body });
    expect(world.reads).toBe(reads);
    await series('hand', '', '41/-101.5');
    expect(world.reads).toBe(reads + 1);
    await series('hand', '?limit=2', '41/-101');
    expect(world.reads).toBe(reads + 2);
    // The latest-forecast form shares the entries of the by-variable form.
    const latest = await get(app(), t.alice, '/models/hand/latest-forecast/timeseries/41/-101');
    expect(latest.body).toEqual({ forecast: expect.stringMatching(/^\/forecasts\//), variables: { clearSky: first.body } });
    expect(world.reads).toBe(reads + 2);
  });
});

describe('weather that refuses the request', () => {
  it('is the caller’s request: 400 with the weather’s code (docs/decisions/0021-grid-requests-and-forecast-boundary.md), and nothing kept', async () => {
    const first = await series('hand', '', '-89/0');
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ id: 'out_of_coverage', message: 'the table covers no place this far south' });
    const reads = world.reads;
    expect((await series('hand', '', '-89/0')).status).toBe(400);
    expect(world.reads).toBe(reads + 1);
  });
});
