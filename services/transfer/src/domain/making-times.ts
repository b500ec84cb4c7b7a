/**
 * How long a file not made yet will take (docs/decisions/0320-dataset-list-says-how-long-a-file-takes.md):
 * from the time this process measured making files, per value written (cells x steps x
 * variables), never from a constant. A file's cost per value depends mostly on its product (daily
 * extremes cost more per value than hourly temperature, whose hours share their day's anchors),
 * so a product's own makings are used first, then any product's; a making under way counts from
 * its rows written since its first. Nothing measured yet: no estimate.
 */

/** Makings a product's rate is taken from: the latest, so a machine's load changing shows soon. */
const RECENT = 8;

/** One making: the values it wrote and the milliseconds it took. */
interface Measure {
  values: number;
  ms: number;
}

/**
 * A making under way: when it started, the values it will write, the share of its rows written so
 * far, and when its first row was written with the share then.
 */
interface Under {
  product: string;
  values: number;
  startMs: number;
  done: number;
  firstMs: number;
  firstDone: number;
}

/** Milliseconds per value over measures, or undefined when they hold none. */
function rate(measures: readonly Measure[]): number | undefined {
  let values = 0;
  let ms = 0;
  for (const m of measures) {
    values += m.values;
    ms += m.ms;
  }
  return values > 0 ? ms / values : undefined;
}

export class MakingTimes {
  private readonly byProduct = new Map<string, Measure[]>();
  private readonly all: Measure[] = [];
  private readonly under = new Map<string, Under>();

  /** `clock` in milliseconds, monotonic (performance.now): the making's wall time, whatever the service's clock says. */
  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** A making of `values` values of the product starts, under the file's key. */
  started(key: string, product: string, values: number): void {
    this.under.set(key, { product, values, startMs: this.clock(), done: 0, firstMs: 0, firstDone: 0 });
  }

  /** The share of the file's rows written so far, 0 to 1. */
  progress(key: string, done: number): void {
    const m = this.under.get(key);
    if (!m) return;
    m.done = Math.min(1, Math.max(0, done));
    if (m.firstDone === 0) {
      m.firstMs = this.clock();
      m.firstDone = m.done;
    }
  }

  /** The making ends: measured when it made the file, forgotten when it failed. */
  ended(key: string, ok: boolean): void {
    const m = this.under.get(key);
    this.under.delete(key);
    if (!m || !ok) return;
    const measure = { values: m.values, ms: this.clock() - m.startMs };
    const recent = this.byProduct.get(m.product) ?? [];
    recent.push(measure);
    if (recent.length > RECENT) recent.shift();
    this.byProduct.set(m.product, recent);
    this.all.push(measure);
    if (this.all.length > RECENT) this.all.shift();
  }

  /**
   * Milliseconds until the file of `key` (of `values` values of the product) is made: what is left
   * of a making under way, or the whole making of one not started; undefined with nothing measured.
   */
  estimateMs(key: string, product: string, values: number): number | undefined {
    const now = this.clock();
    const m = this.under.get(key);
    // Rows are timed from the first written: before it, a thread loads the weather and reads a first
    // band with its caches cold, which says little about the rows after it.
    if (m && m.done > m.firstDone) return ((now - m.firstMs) * (1 - m.done)) / (m.done - m.firstDone);
    const perValue = rate(this.byProduct.get(product) ?? []) ?? rate(this.all) ?? this.rateUnderWay(now);
    if (perValue === undefined) return undefined;
    const whole = perValue * values;
    return m ? Math.max(0, whole - (now - m.startMs)) : whole;
  }

  /** Milliseconds per value of the makings under way, from the rows they have written. */
  private rateUnderWay(now: number): number | undefined {
    return rate(
      [...this.under.values()]
        .filter((m) => m.done > m.firstDone)
        .map((m) => ({ values: m.values * (m.done - m.firstDone), ms: now - m.firstMs })),
    );
  }
}
