/**
 * A run written straight into a synced source's store and registry under a sync dir, with no
 * archive or sync in between: the start of the areas' tests of a synced store on a grid that the
 * GRIB2 test archive's analytic fields do not suit, such as one kept in 0..360 across the
 * antimeridian (docs/decisions/0444-tiles-wrap-longitudes-into-the-grid.md).
 */
import { join } from 'node:path';
import { GridStoreWriter, writeSourceRegistry } from '../src/index.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A store over the Pacific, columns 150 to 230 (1°) in 0..360, rows 0 to 30: its cells reach from 149.5 east to 129.5 W. */
export const PACIFIC = {
  lats: Array.from({ length: 31 }, (_, i) => i),
  lons: Array.from({ length: 81 }, (_, j) => 150 + j),
};

export interface StoreField {
  /** the variable, also its standard name */
  name: string;
  units: string;
  /** its value at a grid point, at every step */
  value: (lat: number, lon: number) => number;
  /** hourly (`time`) unless given: one value a day from the run's day (`time_1d`, the daily extremes), or none (the ground) */
  axis?: 'daily' | 'none';
}

export interface SyncedStoreRun {
  /** the run's start, epoch ms UTC */
  runMs: number;
  lats: readonly number[];
  lons: readonly number[];
  fields: readonly StoreField[];
  /** hourly steps from the run's start; 2 unless given */
  steps?: number;
}

/** The run written as `<syncDir>/<source>/runs/<YYYYMMDDHH>.zarr` and published in the source's registry; the store's path. */
export async function writeSyncedRun(syncDir: string, source: string, run: SyncedStoreRun): Promise<string> {
  const { runMs, lats, lons, fields } = run;
  const steps = Array.from({ length: run.steps ?? 2 }, (_, k) => k);
  const iso = new Date(runMs).toISOString();
  const name = `runs/${iso.slice(0, 13).replace(/[-T]/g, '')}.zarr`;
  const sourceDir = join(syncDir, source);
  const w = await GridStoreWriter.create(join(sourceDir, name), {
    lats: [...lats],
    lons: [...lons],
    attributes: { title: `${source} run ${iso}`, product: source },
  });
  await w.addTimeAxis({ name: 'time', startMs: runMs, stepMs: HOUR_MS, length: steps.length });
  if (fields.some((f) => f.axis === 'daily'))
    await w.addTimeAxis({ name: 'time_1d', startMs: Math.floor(runMs / DAY_MS) * DAY_MS, stepMs: DAY_MS, length: 1 });
  for (const { name: variable, units, value, axis } of fields) {
    const attributes = { standard_name: variable, units };
    const time = axis === 'none' ? undefined : axis === 'daily' ? 'time_1d' : 'time';
    await w.addVariable(time ? { name: variable, time, attributes } : { name: variable, attributes });
    const grid = lats.flatMap((lat) => lons.map((lon) => value(lat, lon)));
    await w.write(variable, Float32Array.from(time === 'time' ? steps.flatMap(() => grid) : grid));
  }
  await w.close();
  await writeSourceRegistry(sourceDir, {
    source,
    runs: [{ run: iso, path: name, steps, syncedAt: iso }],
    analysis: null,
    retired: [],
    expired: [],
  });
  return join(sourceDir, name);
}
