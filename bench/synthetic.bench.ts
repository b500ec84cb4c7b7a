/**
 * Synthetic weather generation throughput (target: at least 5 million values a second on one
 * core). Run: `npx -y pnpm@10 exec tsx bench/synthetic.bench.ts`.
 *
 * Baseline, measured in the same run: a tight loop filling a Float32Array with Math.sin(i) — the
 * cheapest "procedural value" a JS engine can produce, so the ratio says how many such trivial
 * values each synthetic value costs on this machine. The absolute values/s are printed too,
 * because the target is absolute. Each case runs a warm-up pass, then is timed over repeated
 * calls for at least ~1 s; the best of 3 rounds is reported (least disturbed by other load).
 */
import { SyntheticSource } from '../packages/weather/src/synthetic/index.js';
import type { BBox, TimeRange, VariableId } from '../packages/weather/src/grid/grid-source.js';

const TARGET = 5_000_000;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const src = new SyntheticSource({ now: () => Date.UTC(2025, 0, 1) });

/** values per second of fn (which returns how many values it produced), best of 3 rounds */
async function measure(fn: () => number | Promise<number>, minMs = 1000): Promise<number> {
  await fn();
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < minMs / 3) {
      n += await fn();
      t = performance.now();
    }
    best = Math.max(best, (n / (t - t0)) * 1000);
  }
  return best;
}

let sink = 0;
const baselineBuf = new Float32Array(1_000_000);
function baseline(): number {
  for (let i = 0; i < baselineBuf.length; i++) baselineBuf[i] = Math.sin(i);
  sink += baselineBuf[12345] as number;
  return baselineBuf.length;
}

// A ~5,000 km2 field at 45N: 0.9 x 0.64 degrees = 91 x 65 cells at 0.01 degrees.
const FIELD: BBox = [10, 45, 10.9, 45.64];
const hourlyWindow = (variable: VariableId, days: number) => (): number => {
  const r: TimeRange = { startMs: Date.UTC(2023, 3, 1), endMs: Date.UTC(2023, 3, 1) + days * DAY - HOUR };
  const w = src.windowSync(variable, FIELD, r);
  sink += w.values[0] as number;
  return w.values.length;
};
let k = 0;
const dailyPoint = (variable: VariableId) => (): number => {
  // a new location each call, so nothing is reused between calls
  k = (k + 1) % 1000;
  const s = src.pointSeriesSync(variable, -100 + k * 0.0137, 38 + k * 0.0071, {
    startMs: Date.UTC(2015, 0, 1),
    endMs: Date.UTC(2024, 11, 31),
  });
  sink += s.values[0] as number;
  return s.values.length;
};
const dailyPair = async (): Promise<number> => {
  k = (k + 1) % 1000;
  const s = await src.dailyExtremesAt(-100 + k * 0.0137, 38 + k * 0.0071, { startMs: Date.UTC(2015, 0, 1), endMs: Date.UTC(2024, 11, 31) });
  sink += (s.tmax.values[0] as number) + (s.tmin.values[0] as number);
  return s.tmax.values.length + s.tmin.values.length;
};
// A 100 ha field (1 km2 at 42N, 0.012 x 0.009 degrees) grown by a cell: 3 x 3 cells.
const fieldPair = async (): Promise<number> => {
  k = (k + 1) % 1000;
  const w = -93.64 + k * 0.0137,
    s = 42.02 + k * 0.0071;
  const r = await src.dailyExtremesIn([w, s, w + 0.022, s + 0.019], { startMs: Date.UTC(2024, 3, 1), endMs: Date.UTC(2024, 9, 17) });
  sink += r.tmax.values[0] as number;
  return r.tmax.values.length + r.tmin.values.length;
};
const etPoint = async (): Promise<number> => {
  k = (k + 1) % 1000;
  const s = await src.etInputsAt(5 + k * 0.0137, 50 + k * 0.0071, { startMs: Date.UTC(2023, 0, 1), endMs: Date.UTC(2023, 11, 31, 23) });
  sink += s.airTemperature.values[0] as number;
  return 5 * s.airTemperature.values.length;
};
const hourlyPoint = (variable: VariableId) => (): number => {
  k = (k + 1) % 1000;
  const s = src.pointSeriesSync(variable, 5 + k * 0.0137, 50 + k * 0.0071, {
    startMs: Date.UTC(2023, 0, 1),
    endMs: Date.UTC(2023, 11, 31, 23),
  });
  sink += s.values[0] as number;
  return s.values.length;
};

const base = await measure(baseline);
const cases: [string, () => number | Promise<number>][] = [
  ['hourly air_temperature window, 5,000 km2 field x 7 days', hourlyWindow('air_temperature', 7)],
  ['hourly shortwave window, 5,000 km2 field x 7 days', hourlyWindow('surface_downwelling_shortwave_flux_in_air', 7)],
  ['hourly precipitation_rate window, 5,000 km2 field x 7 days', hourlyWindow('precipitation_rate', 7)],
  ['daily Tmax point series, 10 years (bilinear, 4 cells)', dailyPoint('air_temperature_daily_max')],
  ['daily Tmin point series, 10 years (bilinear, 4 cells)', dailyPoint('air_temperature_daily_min')],
  ['daily Tmax+Tmin point series together (dailyExtremesAt), 10 years', dailyPair],
  ['daily Tmax+Tmin window together (dailyExtremesIn), 100 ha field x 200 days', fieldPair],
  ['hourly air_temperature point series, 1 year', hourlyPoint('air_temperature')],
  ['hourly dewpoint point series, 1 year', hourlyPoint('dew_point_temperature')],
  ['hourly shortwave point series, 1 year', hourlyPoint('surface_downwelling_shortwave_flux_in_air')],
  ['hourly wind_speed point series, 1 year', hourlyPoint('wind_speed')],
  ['hourly surface_air_pressure point series, 1 year', hourlyPoint('surface_air_pressure')],
  ['the five hourly ET inputs at a point together (etInputsAt), 1 year', etPoint],
];

const fmt = (v: number): string => `${(v / 1e6).toFixed(1)} M values/s`;
console.log('Synthetic weather generation, one core (values counted as output float32 values)');
console.log(`baseline  Float32Array fill with Math.sin(i): ${fmt(base)}`);
for (const [name, fn] of cases) {
  const v = await measure(fn);
  console.log(
    `${v >= TARGET ? 'PASS' : 'FAIL'}  ${name}: ${fmt(v)}, ratio to baseline ${(v / base).toFixed(3)} (target ${TARGET / 1e6} M values/s)`,
  );
}
if (sink === 42) console.log('');
