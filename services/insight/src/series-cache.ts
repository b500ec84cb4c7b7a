import type { HourlyQuery } from '@fieldcast/schemas';
import { forecastBoundaryMs } from '@fieldcast/weather';
import type { HourlyQuantity } from './domain/hourly-series.js';

/**
 * Point series already written, as their JSON text, least recently used out: one explicit,
 * bounded, keyed cache (docs/decisions/0036-caches.md,
 * docs/decisions/0112-insight-point-series-speed.md). Bounded by the characters kept (a year of
 * ET is about 780,000), not by entries; a text over the bound is not kept, nor a failed
 * computation.
 */
export class SeriesTextCache {
  /** each text, and its length once it is there (0 while computing) */
  private readonly entries = new Map<string, { text: Promise<string>; chars: number }>();
  /** characters of the texts computed and kept */
  private chars = 0;

  constructor(readonly maxChars = 64_000_000) {}

  /**
   * The key names everything a point series' text depends on: the quantity and its unit, the
   * point as given, the hours and start and end as given (both are echoed), and the forecast
   * boundary at `nowMs`, which decides each hour's products (spec 2.7) and so moves every key on
   * at each whole hour. The weather a process reads does not change while it runs
   * (docs/decisions/0143-model-series-cache.md).
   */
  static key(quantity: HourlyQuantity, latitude: number, longitude: number, query: HourlyQuery, nowMs: number): string {
    const unit = quantity === 'evapotranspiration' ? query.unit : '';
    return `${quantity}|${unit}|${latitude}|${longitude}|${query.firstMs}|${query.lastMs}|${query.startTime}|${query.endTime}|${forecastBoundaryMs(nowMs)}`;
  }

  /** The kept text, or the text `compute` gives, kept once it is there unless computing fails. */
  get(key: string, compute: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(key);
    if (hit) {
      // Map iteration follows insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.text;
    }
    const entry = { text: compute(), chars: 0 };
    this.entries.set(key, entry);
    entry.text.then(
      (text) => {
        if (this.entries.get(key) !== entry) return;
        if (text.length > this.maxChars) return this.drop(key);
        entry.chars = text.length;
        this.chars += text.length;
        for (const oldest of this.entries.keys()) {
          if (this.chars <= this.maxChars) break;
          this.drop(oldest);
        }
      },
      () => {
        if (this.entries.get(key) === entry) this.drop(key);
      },
    );
    return entry.text;
  }

  get size(): number {
    return this.entries.size;
  }

  /** characters of the texts kept */
  get keptChars(): number {
    return this.chars;
  }

  private drop(key: string): void {
    this.chars -= this.entries.get(key)?.chars ?? 0;
    this.entries.delete(key);
  }
}
