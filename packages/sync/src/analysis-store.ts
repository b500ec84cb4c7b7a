/**
 * A source's analysis store: each run's first hours, up to the next run, appended one run after
 * another, so past hours are served from the runs' analyses
 * (docs/decisions/0250-synced-runs-staged-then-published.md). Same layout as a run's store
 * (docs/decisions/0014-zarr-v2-point-series-layout.md: float32, Fortran order, uncompressed, 8 x 8
 * cells a chunk) with time chunks of 30 days, so that an append writes in place:
 *
 * - a cell's hours are one contiguous run in its chunk file, so a run's hours are copied from the
 *   run's store cell by cell (one read of each run chunk, one write per cell);
 * - chunk files are made whole, filled with NaN, so hours no run gave stay missing;
 * - the new hours lie past the arrays' declared length until the metadata is replaced (each
 *   `.zarray`, then `.zmetadata`, renamed into place): a reader sees the store before the append
 *   or after it, never half of it;
 * - the mean rates' axis has its bounds (CF 1.11 §7.1, docs/decisions/0379-time-cells-of-mean-rates.md)
 *   as a run's store has, written past their declared length with the axis' new hours and declared
 *   in the same metadata, so a reader never sees the axis and its bounds of different lengths;
 * - an array's frame copy (one hour a chunk, docs/decisions/0505-frame-copies-of-synced-runs.md)
 *   takes the run's chunk files of the hours appended by hard link, also past its declared length.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FRAMES_OF, type TimeCell, timeBoundsMetadata, timeBoundsName, timeBoundsValues, writeWhole } from '@fieldcast/weather';
import { openChunk } from './chunk-files.js';
import { StepDataError } from './errors.js';
import { HOURLY_AXES } from './run-store.js';

const HOUR_MS = 3_600_000;
/** Hours in a time chunk: 30 days. */
export const ANALYSIS_TIME_CHUNK = 720;
/** Time coordinate values per chunk: ten years of hours. */
const COORD_CHUNK = 87_840;

type Json = Record<string, unknown>;

interface ArrayMeta {
  zarray: Json & { shape: number[]; chunks: number[]; dtype: string; order: string };
  zattrs: Json & { _ARRAY_DIMENSIONS: string[] };
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as T;
}

/** The store's arrays with their metadata, read from `.zmetadata`. */
async function readConsolidated(dir: string): Promise<Map<string, ArrayMeta> & { root: Json }> {
  const { metadata } = await readJson<{ metadata: Record<string, Json> }>(path.join(dir, '.zmetadata'));
  const arrays = new Map<string, ArrayMeta>() as Map<string, ArrayMeta> & { root: Json };
  for (const [key, value] of Object.entries(metadata)) {
    const m = /^(.+)\/\.zarray$/.exec(key);
    if (m) arrays.set(m[1]!, { zarray: value as ArrayMeta['zarray'], zattrs: metadata[`${m[1]}/.zattrs`] as ArrayMeta['zattrs'] });
  }
  arrays.root = metadata['.zattrs'] ?? {};
  return arrays;
}

/** Writes each array's `.zarray` and then `.zmetadata` (the commit for consolidated readers). */
async function commit(dir: string, arrays: Map<string, ArrayMeta>, root: Json): Promise<void> {
  const metadata: Record<string, Json> = { '.zgroup': { zarr_format: 2 }, '.zattrs': root };
  for (const [name, { zarray, zattrs }] of arrays) {
    metadata[`${name}/.zarray`] = zarray;
    metadata[`${name}/.zattrs`] = zattrs;
    await fs.mkdir(path.join(dir, name), { recursive: true });
    await writeWhole(path.join(dir, name, '.zarray'), JSON.stringify(zarray, null, 2));
    await writeWhole(path.join(dir, name, '.zattrs'), JSON.stringify(zattrs, null, 2));
  }
  await writeWhole(path.join(dir, '.zgroup'), JSON.stringify({ zarr_format: 2 }));
  await writeWhole(path.join(dir, '.zattrs'), JSON.stringify(root, null, 2));
  await writeWhole(path.join(dir, '.zmetadata'), JSON.stringify({ metadata, zarr_consolidated_format: 1 }, null, 2));
}

/**
 * Writes rows [from, from + n) of a float64 array along a time axis in place, `width` values a row
 * (C order, COORD_CHUNK rows a chunk): the time coordinate (width 1) or its bounds (width 2).
 */
async function writeRows(dir: string, name: string, from: number, values: Float64Array, width: 1 | 2): Promise<void> {
  const rows = values.length / width;
  for (let k = 0; k < rows;) {
    const index = from + k;
    const chunk = Math.floor(index / COORD_CHUNK);
    const within = index - chunk * COORD_CHUNK;
    const n = Math.min(rows - k, COORD_CHUNK - within);
    const key = width === 1 ? String(chunk) : `${chunk}.0`;
    const handle = await openChunk(path.join(dir, name, key), COORD_CHUNK * width * 8);
    try {
      const part = values.subarray(k * width, (k + n) * width);
      await handle.write(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), 0, part.byteLength, within * width * 8);
    } finally {
      await handle.close();
    }
    k += n;
  }
}

/** Writes the time coordinate values (hours since the epoch) of rows [from, from + hours.length). */
const writeTimes = (dir: string, name: string, from: number, hoursSinceEpoch: Float64Array) =>
  writeRows(dir, name, from, hoursSinceEpoch, 1);

/** The cell of an hourly axis' stamps, where it has bounds (run-store.ts). */
const cellOf = (axis: string): TimeCell | undefined => HOURLY_AXES.find((a) => a.name === axis)?.cell;

/** Writes the bounds (CF 1.11 §7.1) of the time coordinate values of rows [from, from + hours.length). */
const writeBounds = (dir: string, axis: string, cell: TimeCell, from: number, hoursSinceEpoch: Float64Array) =>
  writeRows(dir, timeBoundsName(axis), from, timeBoundsValues(hoursSinceEpoch, cell), 2);

/**
 * Declares the bounds of `axis` in `arrays` (the axis' `bounds` attribute and the [time, 2] array,
 * COORD_CHUNK rows a chunk, of the axis' declared length) when they are not there: a new
 * analysis, or one written without them (whose readers take its cell from the axis' name,
 * docs/decisions/0379-time-cells-of-mean-rates.md). Returns the first row whose bounds are to be
 * written: 0 when they were just declared, else `from`.
 */
function declareBounds(arrays: Map<string, ArrayMeta>, axis: string, from: number): number {
  const name = timeBoundsName(axis);
  if (arrays.has(name)) return from;
  const coordinate = arrays.get(axis)!;
  coordinate.zattrs.bounds = name;
  arrays.set(name, timeBoundsMetadata(axis, coordinate.zarray.shape[0]!, COORD_CHUNK));
  return 0;
}

export interface AnalysisAppend {
  /** The run's store, written by writeRunStore. */
  runStore: string;
  /** Hours of each time axis of the run's store to take: from its start, this many. */
  hours: number;
  attributes: Record<string, unknown>;
}

interface RunAxis {
  name: string;
  startMs: number;
  length: number;
}

/** The time axes of a store as its time coordinates give them (hourly or daily, regular by construction). */
async function axesOf(dir: string, arrays: Map<string, ArrayMeta>): Promise<Map<string, RunAxis>> {
  const out = new Map<string, RunAxis>();
  for (const [name, meta] of arrays) {
    if (meta.zattrs.axis !== 'T') continue;
    const raw = await fs.readFile(path.join(dir, name, '0'));
    const first = new Float64Array(raw.buffer, raw.byteOffset, 1)[0]!;
    out.set(name, { name, startMs: first * HOUR_MS, length: meta.zarray.shape[0]! });
  }
  return out;
}

/**
 * Appends the first `hours` of each hourly axis of a run's store to the analysis store at `dir`
 * (made on the first append). Hours at or before the store's end are left as they are: a run
 * older than the newest appended adds nothing. Returns the hours appended.
 */
export async function appendAnalysis(dir: string, append: AnalysisAppend): Promise<number> {
  const run = await readConsolidated(append.runStore);
  const runAxes = await axesOf(append.runStore, run);
  const hourly = [...runAxes.values()].filter((a) => HOURLY_AXES.some((h) => h.name === a.name));
  const exists = await fs.stat(path.join(dir, '.zmetadata')).then(
    () => true,
    () => false,
  );
  if (!exists) await createAnalysis(dir, append.runStore, run, hourly);
  const store = await readConsolidated(dir);
  for (const coordinate of ['lat', 'lon'])
    if (JSON.stringify(store.get(coordinate)?.zarray.shape) !== JSON.stringify(run.get(coordinate)?.zarray.shape))
      throw new StepDataError(`${append.runStore} is not on the grid of the analysis store ${dir}`);
  const storeAxes = await axesOf(dir, store);
  let appended = 0;
  for (const axis of hourly) {
    const target = storeAxes.get(axis.name);
    if (!target) continue;
    const endMs = target.startMs + target.length * HOUR_MS;
    // The run's hours after the store's end, up to the run's own first `hours`.
    const skip = Math.max(0, (endMs - axis.startMs) / HOUR_MS);
    const take = Math.min(append.hours, axis.length) - skip;
    if (take <= 0) continue;
    const firstMs = axis.startMs + skip * HOUR_MS;
    const at = (firstMs - target.startMs) / HOUR_MS;
    for (const [name, meta] of run) {
      if (meta.zattrs._ARRAY_DIMENSIONS[0] !== axis.name || meta.zarray.shape.length !== 3 || !store.has(name)) continue;
      const copy = meta.zattrs[FRAMES_OF] ? linkFrames : copyHours;
      await copy(append.runStore, dir, name, meta, store.get(name)!, { skip, take, at, from: target.length });
    }
    const times = Float64Array.from(
      { length: take + (at - target.length) },
      (_, k) => (target.startMs + (target.length + k) * HOUR_MS) / HOUR_MS,
    );
    await writeTimes(dir, axis.name, target.length, times);
    const cell = cellOf(axis.name);
    if (cell) {
      const from = declareBounds(store, axis.name, target.length);
      const hours = Float64Array.from({ length: at + take - from }, (_, k) => target.startMs / HOUR_MS + from + k);
      await writeBounds(dir, axis.name, cell, from, hours);
    }
    const length = at + take;
    for (const meta of store.values()) if (meta.zattrs._ARRAY_DIMENSIONS[0] === axis.name) meta.zarray.shape[0] = length;
    appended = Math.max(appended, take);
  }
  // Nothing new (a run whose hours the store holds already) leaves the metadata as it was, so
  // serving processes do not open the store again for nothing.
  if (appended > 0) await commit(dir, store, { ...store.root, ...append.attributes });
  return appended;
}

/** An empty analysis store with the run store's grid, variables and hourly axes (starting at the run's hours). */
async function createAnalysis(
  dir: string,
  runStore: string,
  run: Map<string, ArrayMeta> & { root: Json },
  hourly: RunAxis[],
): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const arrays = new Map<string, ArrayMeta>();
  for (const coordinate of ['lat', 'lon']) {
    const meta = run.get(coordinate)!;
    arrays.set(coordinate, meta);
    await fs.mkdir(path.join(dir, coordinate), { recursive: true });
    await fs.copyFile(path.join(runStore, coordinate, '0'), path.join(dir, coordinate, '0'));
  }
  for (const axis of hourly) {
    const meta = run.get(axis.name)!;
    // Its bounds, if any, are declared at the first append (declareBounds).
    const { bounds: _, ...zattrs } = meta.zattrs;
    arrays.set(axis.name, { zarray: { ...meta.zarray, shape: [0], chunks: [COORD_CHUNK] }, zattrs });
    // The axis' first hour, so that its start survives an empty array (read back by axesOf).
    await writeTimes(dir, axis.name, 0, Float64Array.of(axis.startMs / HOUR_MS));
  }
  for (const [name, meta] of run) {
    const dims = meta.zattrs._ARRAY_DIMENSIONS;
    if (meta.zarray.shape.length !== 3 || !hourly.some((a) => a.name === dims[0])) continue;
    // A frame copy keeps its chunks of one hour (docs/decisions/0505-frame-copies-of-synced-runs.md).
    const chunks = meta.zattrs[FRAMES_OF] ? meta.zarray.chunks : [ANALYSIS_TIME_CHUNK, ...meta.zarray.chunks.slice(1)];
    arrays.set(name, { zarray: { ...meta.zarray, shape: [0, ...meta.zarray.shape.slice(1)], chunks }, zattrs: { ...meta.zattrs } });
  }
  await commit(dir, arrays, { ...run.root });
}

/**
 * Writes hours [from, at + take) of array `name` of the analysis store: NaN before `at` (hours no
 * run gave), then hours [skip, skip + take) of the run's store (one time chunk, Fortran order),
 * cell by cell, one write per cell and analysis chunk.
 */
async function copyHours(
  runDir: string,
  dir: string,
  name: string,
  runMeta: ArrayMeta,
  meta: ArrayMeta,
  hours: { skip: number; take: number; at: number; from: number },
): Promise<void> {
  const { skip, take, at, from } = hours;
  const [nt, nLat, nLon] = runMeta.zarray.shape as [number, number, number];
  const [ct, cLat, cLon] = runMeta.zarray.chunks as [number, number, number];
  const [at0, aLat, aLon] = meta.zarray.chunks as [number, number, number];
  if (ct !== nt || runMeta.zarray.order !== 'F' || meta.zarray.order !== 'F' || aLat !== cLat || aLon !== cLon)
    throw new StepDataError(`${name}: the run's store and the analysis are not both in the point-series layout`);
  const end = at + take;
  for (let ci = 0; ci < Math.ceil(nLat / cLat); ci++)
    for (let cj = 0; cj < Math.ceil(nLon / cLon); cj++) {
      const chunk = await fs.readFile(path.join(runDir, name, `0.${ci}.${cj}`));
      const series = new Float32Array(chunk.buffer, chunk.byteOffset, chunk.byteLength / 4);
      for (let index = from; index < end;) {
        const tc = Math.floor(index / at0);
        const within = index - tc * at0;
        const n = Math.min(end - index, at0 - within);
        const handle = await openChunk(path.join(dir, name, `${tc}.${ci}.${cj}`), at0 * cLat * cLon * 4);
        try {
          // One positioned write per cell; the chunk's cells side by side in the thread pool, and
          // never blocking the event loop of a fleet that syncs while it serves.
          const writes: Array<Promise<unknown>> = [];
          for (let cell = 0; cell < cLat * cLon; cell++) {
            const values = new Float32Array(n);
            for (let k = 0; k < n; k++) {
              const t = index + k - at;
              values[k] = t < 0 ? NaN : series[cell * ct + skip + t]!;
            }
            writes.push(handle.write(new Uint8Array(values.buffer), 0, values.byteLength, (cell * at0 + within) * 4));
          }
          await Promise.all(writes);
        } finally {
          await handle.close();
        }
        index += n;
      }
    }
}

/**
 * Hours [from, at + take) of the frame copy `name` of the analysis store
 * (docs/decisions/0505-frame-copies-of-synced-runs.md): none before `at` (hours no run gave, NaN
 * as a chunk never written is), then hours [skip, skip + take) of the run's copy, each chunk file
 * hard-linked (nothing copied; the run's store never changes and its removal leaves the link).
 * What an append that failed left past the declared length is replaced.
 */
async function linkFrames(
  runDir: string,
  dir: string,
  name: string,
  runMeta: ArrayMeta,
  meta: ArrayMeta,
  hours: { skip: number; take: number; at: number; from: number },
): Promise<void> {
  const { skip, take, at, from } = hours;
  if (JSON.stringify(runMeta.zarray.chunks) !== JSON.stringify(meta.zarray.chunks) || meta.zarray.chunks[0] !== 1)
    throw new StepDataError(`${name}: the run's frame copy and the analysis' are not chunked alike`);
  const [, nLat, nLon] = meta.zarray.shape as [number, number, number];
  const [, fr, fc] = meta.zarray.chunks as [number, number, number];
  await fs.mkdir(path.join(dir, name), { recursive: true });
  for (let index = from; index < at + take; index++)
    for (let ri = 0; ri < Math.ceil(nLat / fr); ri++)
      for (let ci = 0; ci < Math.ceil(nLon / fc); ci++) {
        const file = path.join(dir, name, `${index}.${ri}.${ci}`);
        await fs.rm(file, { force: true });
        if (index < at) continue;
        const source = path.join(runDir, name, `${skip + index - at}.${ri}.${ci}`);
        await fs.link(source, file).catch(async (error: NodeJS.ErrnoException) => {
          // Another file system (a sync dir across mounts): copied instead.
          if (error.code !== 'EXDEV') throw error;
          await fs.copyFile(source, file);
        });
      }
}

/**
 * The analysis without the time chunks that end before `cutoffMs` (FIELDCAST_SYNC_KEEP_DAYS), as
 * a new store `newDir` beside it: the kept chunk files hard-linked under their new keys (nothing
 * copied), the coordinates and metadata rewritten. False when no whole chunk is old enough. The old
 * store is left to be retired: later appends write past its declared length, so its readers never
 * see them.
 */
export async function trimAnalysis(dir: string, newDir: string, cutoffMs: number): Promise<boolean> {
  const store = await readConsolidated(dir);
  const axes = await axesOf(dir, store);
  const drop = new Map<string, number>();
  for (const axis of axes.values()) {
    const chunks = Math.min(
      Math.floor((cutoffMs - axis.startMs) / (ANALYSIS_TIME_CHUNK * HOUR_MS)),
      Math.floor(axis.length / ANALYSIS_TIME_CHUNK),
    );
    if (chunks > 0) drop.set(axis.name, chunks);
  }
  if (drop.size === 0) return false;
  await fs.rm(newDir, { recursive: true, force: true });
  await fs.mkdir(newDir, { recursive: true });
  const arrays = new Map<string, ArrayMeta>();
  for (const [name, meta] of store) {
    const axis = meta.zattrs._ARRAY_DIMENSIONS[0]!;
    const chunks = drop.get(axis) ?? 0;
    const copy: ArrayMeta = { zarray: { ...meta.zarray, shape: [...meta.zarray.shape] }, zattrs: { ...meta.zattrs } };
    arrays.set(name, copy);
    await fs.mkdir(path.join(newDir, name), { recursive: true });
    const from = chunks * ANALYSIS_TIME_CHUNK;
    /** The kept hours of `axis`, the first `n` of them (hours since the epoch). */
    const kept = (a: RunAxis, n: number) => Float64Array.from({ length: n }, (_, k) => a.startMs / HOUR_MS + from + k);
    if (axes.has(name)) {
      const axisInfo = axes.get(name)!;
      copy.zarray.shape[0] = axisInfo.length - from;
      // At least the first hour, so that the axis' start survives an empty array (axesOf).
      await writeTimes(newDir, name, 0, kept(axisInfo, Math.max(1, axisInfo.length - from)));
      continue;
    }
    const cell = cellOf(axis);
    if (cell && store.get(axis)?.zattrs.bounds === name) {
      const axisInfo = axes.get(axis)!;
      copy.zarray.shape[0] = axisInfo.length - from;
      await writeBounds(newDir, axis, cell, 0, kept(axisInfo, axisInfo.length - from));
      continue;
    }
    if (meta.zarray.shape.length !== 3) {
      for (const file of await fs.readdir(path.join(dir, name)))
        if (!file.startsWith('.')) await fs.copyFile(path.join(dir, name, file), path.join(newDir, name, file));
      continue;
    }
    copy.zarray.shape[0] = meta.zarray.shape[0]! - from;
    // Time chunks of 30 days, or of one hour in a frame copy.
    const dropped = from / meta.zarray.chunks[0]!;
    for (const file of await fs.readdir(path.join(dir, name))) {
      const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(file);
      if (!m || Number(m[1]) < dropped) continue;
      await fs.link(path.join(dir, name, file), path.join(newDir, name, `${Number(m[1]) - dropped}.${m[2]}.${m[3]}`));
    }
  }
  await commit(newDir, arrays, store.root);
  return true;
}
