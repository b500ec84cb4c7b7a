/**
 * A run's point time series with statistics (spec 2.8, 4.7; docs/interface.md §7).
 */
import type { ModelVariableTimeSeries } from '@fieldcast/schemas';
import { mean, median, seriesStatistics } from '@fieldcast/science';
import {
  ERROR_RULES,
  forecastValues,
  type GridSource,
  type ModelVariable,
  type PointSeries,
  type TimeRange,
  type Truth,
  type VariableId,
} from '@fieldcast/weather';
import { producedValidTimes, type Run } from './runs.js';

/** Decimal places of served values, means, medians and modes. */
const VALUE_DECIMALS = 2;
const SCALE = 10 ** VALUE_DECIMALS;

export interface SeriesWindow {
  /** earliest validTime, inclusive */
  startMs?: number;
  /** latest validTime, inclusive */
  endMs?: number;
  /** at most this many values, the first ones */
  limit?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function round(v: number): number {
  // + 0 turns -0 into 0 for a clean JSON number.
  return Math.round(v * SCALE) / SCALE + 0;
}

/**
 * The mean and median of the served values at their two decimals, computed on whole hundredths:
 * their sum and the sum of two middle values are exact integers, so a mean or median that lies
 * on a half hundredth rounds as its decimal value does (toward +infinity, as the values and the
 * mode, docs/decisions/0009-statistics-mode.md), never as a binary fraction just below it
 * ((0.01 + 0.06) / 2 is 0.034999... in doubles) (docs/decisions/0383-series-statistics-exact.md).
 */
function centre(series: readonly { value: number | null }[]): { mean: number | null; median: number | null } {
  const hundredths = series.map((p) => (p.value === null ? null : Math.round(p.value * SCALE)));
  const atTwoDecimals = (v: number | null) => (v === null ? null : Math.round(v) / SCALE + 0);
  return { mean: atTwoDecimals(mean(hundredths)), median: atTwoDecimals(median(hundredths)) };
}

/** The valid times of the run the window selects, among those produced at nowMs. */
export function selectValidTimes(run: Run, nowMs: number, w: SeriesWindow): number[] {
  const times = producedValidTimes(run, nowMs).filter(
    (t) => (w.startMs === undefined || t >= w.startMs) && (w.endMs === undefined || t <= w.endMs),
  );
  return w.limit === undefined ? times : times.slice(0, w.limit);
}

/**
 * What one request reads at its point and valid times, each once however many variables need it:
 * the weather's point series (the dewpoint's error needs the temperature too) and the valid
 * times' ISO text. A request the weather refuses is the caller's (400 with its code,
 * docs/decisions/0021-grid-requests-and-forecast-boundary.md).
 */
export class TruthReader {
  private readonly reads = new Map<VariableId, Promise<PointSeries | null>>();
  private iso: string[] | null = null;

  /**
   * `held`: the times the weather holds a variable at, when it holds some of a run's valid times
   * only (a synced run's store: a mean rate's first hour is the one after the run's start). The
   * read keeps to them; the valid times outside are missing values (spec 2.8: null).
   */
  constructor(
    private readonly weather: GridSource,
    private readonly latitude: number,
    private readonly longitude: number,
    private readonly validMs: readonly number[],
    private readonly held: (variable: VariableId) => TimeRange | null = () => null,
  ) {}

  private read(variable: VariableId): Promise<PointSeries | null> {
    let p = this.reads.get(variable);
    if (!p) {
      const held = this.held(variable);
      const startMs = Math.max(this.validMs[0] as number, held?.startMs ?? -Infinity);
      const endMs = Math.min(this.validMs[this.validMs.length - 1] as number, held?.endMs ?? Infinity);
      p = startMs > endMs ? Promise.resolve(null) : this.weather.pointSeries(variable, this.longitude, this.latitude, { startMs, endMs });
      this.reads.set(variable, p);
    }
    return p;
  }

  /** The valid times as ISO 8601 text, formatted once for every variable of the request. */
  validTimes(): string[] {
    return (this.iso ??= this.validMs.map(iso));
  }

  /** The variable's values at the valid times; NaN where the weather has none. */
  async values(variable: VariableId): Promise<Float64Array> {
    const s = await this.read(variable);
    const out = new Float64Array(this.validMs.length).fill(Number.NaN);
    if (!s) return out;
    for (let n = 0; n < out.length; n++) {
      const i = s.stepMs === 0 ? 0 : ((this.validMs[n] as number) - s.startMs) / s.stepMs;
      if (Number.isInteger(i) && i >= 0 && i < s.values.length) out[n] = s.values[i] as number;
    }
    return out;
  }
}

/** The spec 2.8 per-variable object of one variable of a run at a point, at the given valid times. */
export async function variableTimeSeries(
  run: Run,
  variable: ModelVariable,
  latitude: number,
  longitude: number,
  validMs: readonly number[],
  truthReader: TruthReader,
): Promise<ModelVariableTimeSeries> {
  const unit = { description: variable.unit.description, label: variable.unit.label };
  if (validMs.length === 0) return { series: [], mean: null, median: null, mode: null, minimum: null, maximum: null, unit };
  const truth: Truth = { values: await truthReader.values(variable.variable) };
  // A synced run's values are its store's (docs/decisions/0255-synced-runs-as-models.md); a synthetic run's, the world's with its error.
  const rule = run.synced ? ({ kind: 'none' } as const) : ERROR_RULES[variable.variable];
  if (rule.kind === 'depression') truth.temperature = await truthReader.values('air_temperature');
  const values = forecastValues(rule, { model: run.model.name, initMs: run.initMs }, latitude, longitude, validMs, truth);
  const times = truthReader.validTimes();
  const series = times.map((validTime, n) => {
    const v = values[n] as number;
    return { validTime, value: Number.isFinite(v) ? round(v) : null };
  });
  // Statistics of the values as served, so a caller can recompute them from the series. The mode
  // (spec 2.8: a number over the series) bins at the series' own precision, so it is always one
  // of the served values and never a coarser rounding outside their range
  // (docs/decisions/0009-statistics-mode.md).
  const s = seriesStatistics(series, { precision: VALUE_DECIMALS });
  return {
    series,
    ...centre(series),
    mode: s.mode,
    minimum: s.minimum === null ? null : { validTime: s.minimumTime as string, value: s.minimum },
    maximum: s.maximum === null ? null : { validTime: s.maximumTime as string, value: s.maximum },
    unit,
  };
}
