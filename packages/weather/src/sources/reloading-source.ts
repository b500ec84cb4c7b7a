/**
 * The weather a fleet serves when synced stores may change under it
 * (docs/decisions/0251-synced-stores-registry.md): a RoutingSource over the CompositeSource of the
 * moment, made again when the synced stores' registries change, so a newly synced run is served
 * without a restart. A request reads the composite current when it starts; stores no longer
 * served are closed a while later, once reads begun on them have ended.
 */
import { createHash } from 'node:crypto';
import type {
  BBox,
  DailyExtremes,
  EtInputs,
  GridSource,
  GridSpec,
  GridWindow,
  PointSeries,
  TimeRange,
  VariableId,
  VariableInfo,
} from '../grid/grid-source.js';
import { type Place, type RoutingSource, type When, isRoutingSource } from './composite-source.js';

/** How long a store no longer served stays open for the reads begun on it. */
const CLOSE_AFTER_MS = 60_000;

export interface ReloadingSourceOptions {
  /** The source to serve now (opens what it needs; may reuse what the last one opened). */
  load(): Promise<GridSource>;
  /** Changes whenever load would give another source. */
  stamp(): Promise<string>;
  /** Stores of `previous` that `next` no longer serves, to close. */
  dropped(previous: GridSource, next: GridSource): Array<{ close(): Promise<void> }>;
  /** Told when a reload fails; the source served stays. */
  onError?(error: unknown): void;
  /** Told the stores served after a reload. */
  onReload?(source: GridSource): void;
}

export class ReloadingSource implements RoutingSource {
  private timer: NodeJS.Timeout | undefined;
  private reloading: Promise<boolean> | undefined;
  private digest: string | undefined;
  private readonly closing = new Map<NodeJS.Timeout, Array<{ close(): Promise<void> }>>();

  private constructor(
    private current: GridSource,
    private stamped: string,
    private readonly options: ReloadingSourceOptions,
  ) {}

  static async open(options: ReloadingSourceOptions): Promise<ReloadingSource> {
    const stamped = await options.stamp();
    return new ReloadingSource(await options.load(), stamped, options);
  }

  /** The source served now. */
  get source(): GridSource {
    return this.current;
  }

  /**
   * A digest of the stamp the source served now was loaded at (the synced registries' state and
   * the runs expired on the clock, synced-stores.ts servedStamp): the same in every process that
   * reads the same registries, so answers kept or tagged by it agree between replicas. Made once
   * per load: a batch's keys read it per place.
   */
  get version(): string {
    return (this.digest ??= createHash('sha256').update(this.stamped).digest('base64url').slice(0, 16));
  }

  get id(): string {
    return this.current.id;
  }

  get label(): string {
    return this.current.label;
  }

  get grid(): GridSpec {
    return this.current.grid;
  }

  /** Loads again when the stamp changed; true when another source is served now. */
  reload(): Promise<boolean> {
    this.reloading ??= this.reloadOnce().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async reloadOnce(): Promise<boolean> {
    try {
      const stamp = await this.options.stamp();
      if (stamp === this.stamped) return false;
      const next = await this.options.load();
      const previous = this.current;
      this.current = next;
      this.stamped = stamp;
      this.digest = undefined;
      const dropped = this.options.dropped(previous, next);
      if (dropped.length) {
        const t = setTimeout(() => {
          this.closing.delete(t);
          for (const s of dropped) void s.close();
        }, CLOSE_AFTER_MS);
        t.unref();
        this.closing.set(t, dropped);
      }
      this.options.onReload?.(next);
      return true;
    } catch (error) {
      this.options.onError?.(error);
      return false;
    }
  }

  /** Looks for a change every `everyMs` until close. */
  watch(everyMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reload(), everyMs);
    this.timer.unref();
  }

  sourceFor(variable: VariableId, place: Place, when: When): GridSource {
    const c = this.current;
    return isRoutingSource(c) ? c.sourceFor(variable, place, when) : c;
  }

  sourceForPointsIn(variable: VariableId, bbox: BBox, when: When): GridSource | null {
    const c = this.current;
    return isRoutingSource(c) ? c.sourceForPointsIn(variable, bbox, when) : c;
  }

  coverage(): TimeRange {
    return this.current.coverage();
  }

  variables(): VariableInfo[] {
    return this.current.variables();
  }

  pointSeries(variable: VariableId, lon: number, lat: number, range: TimeRange): Promise<PointSeries> {
    return this.current.pointSeries(variable, lon, lat, range);
  }

  window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    return this.current.window(variable, bbox, range);
  }

  slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.current.slice(variable, bbox, timeMs);
  }

  dailyExtremesAt(lon: number, lat: number, range: TimeRange): Promise<DailyExtremes<PointSeries>> {
    return this.current.dailyExtremesAt(lon, lat, range);
  }

  dailyExtremesIn(bbox: BBox, range: TimeRange): Promise<DailyExtremes<GridWindow>> {
    return this.current.dailyExtremesIn(bbox, range);
  }

  etInputsAt(lon: number, lat: number, range: TimeRange): Promise<EtInputs<PointSeries>> {
    return this.current.etInputsAt(lon, lat, range);
  }

  etInputsIn(bbox: BBox, range: TimeRange): Promise<EtInputs<GridWindow>> {
    return this.current.etInputsIn(bbox, range);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.reloading;
    for (const [t, dropped] of this.closing) {
      clearTimeout(t);
      await Promise.all(dropped.map((s) => s.close()));
    }
    await (this.current as { close?: () => Promise<void> }).close?.();
  }
}
