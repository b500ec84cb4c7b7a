/**
 * A run's Zarr store (the point-series layout of docs/decisions/0014-zarr-v2-point-series-layout.md)
 * made from its staged steps (staging.ts), in a directory beside the final one and renamed into
 * place, so a store is there whole or not at all (docs/decisions/0250-synced-runs-staged-then-published.md).
 *
 * Every variable is on an hourly axis, the form every area reads:
 * - instants (temperature, dewpoint, pressure, wind) from the first step to the last, linear in
 *   time between steps that are more than an hour apart;
 * - precipitation type, a code (the catalog's) diagnosed at each step, on the mean rates' axis and
 *   never blended: the hour ending at h takes the code of the step that ends the interval holding
 *   it, as its rate is the mean over that interval, so a frame's rate and type come from one step
 *   wherever its hour is read (a run's store or the analysis, which copies the rates' hours)
 *   (docs/decisions/0502-precipitation-type-synced-from-the-sources.md);
 * - mean rates (shortwave, precipitation) stamped at the end of their hour, the value at h the
 *   mean over (h - 1 h, h], from the rate over the step interval that holds that hour;
 * - daily extremes over each local solar day (grid-source.ts) that the run covers at every
 *   longitude: the largest and smallest of the hourly curve at the day's ends and steps, and of
 *   the source's own maxima and minima over intervals inside the day.
 *
 * Memory: one band of 8 rows (a chunk row) of two steps at a time, and an output block of at most
 * `slabBytes` (narrower columns for longer runs), whatever the run's length.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  CANONICAL_UNITS,
  CF_IDENTITY,
  FRAMES_OF,
  frameChunks,
  framesName,
  GridStoreWriter,
  SYNCED_MEAN_AXIS,
  SYNCED_MEAN_CELL,
  type TimeCell,
  temporaryBeside,
  type VariableId,
} from '@fieldcast/weather';
import { writeFrames } from './chunk-files.js';
import { StepDataError } from './errors.js';
import { type StagedGrid, type StagedStep, readRows } from './staging.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const ROWS = 8;
const DEFAULT_SLAB_BYTES = 32 * 1024 * 1024;

export const INSTANT_VARIABLES: readonly VariableId[] = ['air_temperature', 'dew_point_temperature', 'surface_air_pressure', 'wind_speed'];
/**
 * The hourly time axes of a run's store: instants, and mean rates stamped at the end of their
 * hour, whose cell is written as the axis' bounds (CF 1.11 §7.1,
 * docs/decisions/0379-time-cells-of-mean-rates.md).
 */
export const HOURLY_AXES: ReadonlyArray<{ name: string; cell?: TimeCell }> = [
  { name: 'time' },
  { name: SYNCED_MEAN_AXIS, cell: SYNCED_MEAN_CELL },
];

export const RATE_VARIABLES: readonly VariableId[] = ['surface_downwelling_shortwave_flux_in_air', 'precipitation_rate'];

/** Store columns west to east from -180, and the staged (GRIB) column each comes from. */
export interface Columns {
  lons: Float64Array;
  from: Int32Array;
}

/**
 * Longitudes put in -180..180 as ingest does (docs/decisions/0016-ingest.md): a global grid in
 * 0..360 (GFS) is rotated; a regional one is shifted when it lies wholly east of 180.
 */
export function storeColumns(g: StagedGrid): Columns {
  const raw = Array.from({ length: g.ni }, (_, k) => g.lon0 + k * g.dLon);
  const global = Math.abs(g.ni * g.dLon - 360) < 1e-6 * 360;
  let order = raw.map((lon, k) => ({ lon, k }));
  if (global) order = order.map(({ lon, k }) => ({ lon: lon >= 180 ? lon - 360 : lon, k })).sort((a, b) => a.lon - b.lon);
  else if (raw[0]! >= 180) order = order.map(({ lon, k }) => ({ lon: lon - 360, k }));
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return { lons: Float64Array.from(order, (o) => round(o.lon)), from: Int32Array.from(order, (o) => o.k) };
}

/** Latitudes south to north (the store's order); store row r is staged row nj - 1 - r. */
export function storeLats(g: StagedGrid): Float64Array {
  const south = g.lat0 - (g.nj - 1) * g.dLat;
  return Float64Array.from({ length: g.nj }, (_, r) => Math.round((south + r * g.dLat) * 1e6) / 1e6);
}

interface Input {
  staged: StagedStep;
  index: number;
  startMs: number;
  endMs: number;
}

function inputsOf(steps: readonly StagedStep[], variable: VariableId): Input[] {
  const out: Input[] = [];
  for (const staged of steps)
    staged.fields.forEach((f, index) => {
      if (f.variable === variable) out.push({ staged, index, startMs: f.startMs, endMs: f.endMs });
    });
  return out.sort((a, b) => a.endMs - b.endMs);
}

/** Reads bands of staged rows through open handles, one per staged step. */
class BandReader {
  private readonly handles = new Map<string, Promise<fs.FileHandle>>();

  constructor(private readonly nj: number) {}

  /** Store rows [r0, r1) of an input, as staged rows north to south. */
  async band(input: Input, r0: number, r1: number): Promise<Float32Array> {
    let h = this.handles.get(input.staged.file);
    if (!h) this.handles.set(input.staged.file, (h = fs.open(input.staged.file, 'r')));
    return readRows(await h, input.staged, input.index, this.nj - r1, this.nj - r0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.handles.values()].map((h) => h.then((x) => x.close())));
  }
}

interface Block {
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

/** Value of staged band `band` (rows north to south, full width) at store row r, store column c. */
const at = (band: Float32Array, ni: number, r1: number, r: number, column: number) => band[(r1 - 1 - r) * ni + column]!;

export interface RunStoreOptions {
  runMs: number;
  /** Root attributes: product, source, run ... */
  attributes: Record<string, unknown>;
  slabBytes?: number;
}

export interface RunStoreSummary {
  variables: VariableId[];
  /** First and last hour of the instants' axis. */
  startMs: number;
  endMs: number;
  bytes: number;
}

/** Hours h0..h1 (epoch ms) as the hourly axis `name`, with its cell where it has one. */
function hoursAxis(name: string, h0: number, h1: number) {
  const cell = HOURLY_AXES.find((a) => a.name === name)?.cell;
  return { name, startMs: h0, stepMs: HOUR_MS, length: (h1 - h0) / HOUR_MS + 1, ...(cell ? { cell } : {}) };
}

/**
 * `tmp` renamed to `dir`, whatever was at `dir` before removed. A directory cannot be renamed onto
 * one that is not empty (rename(2), ENOTEMPTY or EEXIST), so when another writer renamed its store
 * there between the removal and the rename, that one is removed in turn: the same run from the
 * same staged steps, and the last writer's store stays.
 */
async function replaceDirectory(tmp: string, dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await fs.rm(dir, { recursive: true, force: true });
    try {
      return await fs.rename(tmp, dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 3 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) {
        await fs.rm(tmp, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

/**
 * Writes the store of the staged `steps` to `dir` (which must not exist: it is made beside and
 * renamed). The steps must share one grid (staging.ts checks it as they arrive).
 */
export async function writeRunStore(dir: string, steps: readonly StagedStep[], options: RunStoreOptions): Promise<RunStoreSummary> {
  const first = steps[0];
  if (!first) throw new StepDataError('no steps to write');
  const grid = first.grid;
  const columns = storeColumns(grid);
  const lats = storeLats(grid);
  const slabBytes = options.slabBytes ?? DEFAULT_SLAB_BYTES;
  const tmp = temporaryBeside(dir);
  const writer = await GridStoreWriter.create(tmp, { lats, lons: columns.lons, attributes: options.attributes, overwrite: true });
  const reader = new BandReader(grid.nj);
  const written: VariableId[] = [];
  let startMs = NaN;
  let endMs = NaN;
  try {
    const addVariable = async (variable: VariableId, time: string) => {
      const cf = CF_IDENTITY[variable];
      const attributes = {
        standard_name: cf.standardName,
        long_name: cf.longName,
        units: CANONICAL_UNITS[variable],
        ...(cf.cellMethods ? { cell_methods: cf.cellMethods } : {}),
      };
      await writer.addVariable({ name: variable, time, attributes });
      // Its frame copy, written from the same blocks (writeBlock): a map of one hour reads it
      // (docs/decisions/0505-frame-copies-of-synced-runs.md).
      await writer.addVariable({
        name: framesName(variable),
        time,
        attributes: { ...attributes, [FRAMES_OF]: variable },
        chunks: frameChunks(grid.nj, grid.ni),
        order: 'C',
      });
      written.push(variable);
    };
    const blocks = (hours: number) => blockPlan(grid.nj, grid.ni, hours, slabBytes);

    const temperature = inputsOf(steps, 'air_temperature');
    if (temperature.length) {
      startMs = temperature[0]!.endMs;
      endMs = temperature.at(-1)!.endMs;
      await writer.addTimeAxis(hoursAxis('time', startMs, endMs));
    }
    for (const variable of INSTANT_VARIABLES) {
      const inputs = inputsOf(steps, variable);
      if (!inputs.length || !temperature.length) continue;
      if (inputs[0]!.endMs !== startMs || inputs.at(-1)!.endMs !== endMs)
        throw new StepDataError(`${variable} is not at every step of the run`);
      await addVariable(variable, 'time');
      const hours = (endMs - startMs) / HOUR_MS + 1;
      for (const b of blocks(hours)) await writeInstants(writer, reader, variable, inputs, b, columns, grid.ni, startMs, hours);
    }

    let rateAxis: { h0: number; h1: number } | null = null;
    for (const variable of RATE_VARIABLES) {
      const inputs = inputsOf(steps, variable);
      if (!inputs.length) continue;
      const h0 = inputs[0]!.startMs + HOUR_MS;
      const h1 = inputs.at(-1)!.endMs;
      if (!rateAxis) {
        rateAxis = { h0, h1 };
        await writer.addTimeAxis(hoursAxis(SYNCED_MEAN_AXIS, h0, h1));
      } else if (rateAxis.h0 !== h0 || rateAxis.h1 !== h1) throw new StepDataError(`${variable} does not cover the other rates' hours`);
      await addVariable(variable, SYNCED_MEAN_AXIS);
      const hours = (h1 - h0) / HOUR_MS + 1;
      for (const b of blocks(hours)) await writeRates(writer, reader, variable, inputs, b, columns, grid.ni, h0, hours);
    }

    const types = inputsOf(steps, 'precipitation_type');
    const typedMs = types.map((ty) => ty.endMs);
    // A run without the type at a step after the first (files that lack it, or steps staged before
    // it was synced; parameters.ts) leaves it out rather than give an hour a rate without a type.
    const typed = temperature.slice(1).every((st) => typedMs.includes(st.endMs));
    if (types.length && typed && rateAxis) {
      await addVariable('precipitation_type', SYNCED_MEAN_AXIS);
      const { h0, h1 } = rateAxis;
      const hours = (h1 - h0) / HOUR_MS + 1;
      for (const b of blocks(hours)) await writeCodes(writer, reader, 'precipitation_type', types, b, columns, grid.ni, h0, hours);
    }

    if (temperature.length) {
      const days = localDays(startMs, endMs, columns.lons);
      if (days.length) {
        await writer.addTimeAxis({ name: 'time_1d', startMs: days[0]!, stepMs: DAY_MS, length: days.length });
        for (const [variable, sign] of [
          ['air_temperature_daily_max', 1],
          ['air_temperature_daily_min', -1],
        ] as const) {
          await addVariable(variable, 'time_1d');
          const extremes = inputsOf(steps, variable);
          for (const b of blocks(days.length))
            await writeExtremes(writer, reader, variable, sign, temperature, extremes, b, columns, grid.ni, days);
        }
      }
    }
    await writer.close();
  } catch (error) {
    await reader.close();
    await fs.rm(tmp, { recursive: true, force: true });
    throw error;
  }
  await reader.close();
  // Measured before the rename: another writer may replace `dir` at any time after it.
  const bytes = await directoryBytes(tmp);
  await replaceDirectory(tmp, dir);
  return { variables: written, startMs, endMs, bytes };
}

/**
 * Bands of 8 rows, split into column blocks (multiples of 8) holding at most slabBytes of output;
 * blocks as wide as a frame chunk or wider span whole frame chunks, so each of their hours is one
 * write per frame chunk (chunk-files.ts writeFrames).
 */
function blockPlan(nj: number, ni: number, hours: number, slabBytes: number): Block[] {
  const fits = Math.max(ROWS, Math.floor(slabBytes / (hours * ROWS * 4) / ROWS) * ROWS);
  const frame = frameChunks(nj, ni)[2];
  const width = Math.min(ni, fits >= frame ? Math.floor(fits / frame) * frame : fits);
  const out: Block[] = [];
  for (let r0 = 0; r0 < nj; r0 += ROWS)
    for (let c0 = 0; c0 < ni; c0 += width) out.push({ r0, r1: Math.min(nj, r0 + ROWS), c0, c1: Math.min(ni, c0 + width) });
  return out;
}

/** An output block [time, rows, columns] in C order, NaN where nothing is written. */
function outputBlock(times: number, b: Block): { data: Float32Array; put(t: number, r: number, c: number, v: number): void } {
  const nr = b.r1 - b.r0;
  const nc = b.c1 - b.c0;
  const data = new Float32Array(times * nr * nc).fill(NaN);
  return { data, put: (t, r, c, v) => void (data[(t * nr + (r - b.r0)) * nc + (c - b.c0)] = v) };
}

async function writeInstants(
  writer: GridStoreWriter,
  reader: BandReader,
  variable: VariableId,
  inputs: Input[],
  b: Block,
  columns: Columns,
  ni: number,
  startMs: number,
  hours: number,
): Promise<void> {
  const out = outputBlock(hours, b);
  let previous: { input: Input; band: Float32Array } | null = null;
  for (const input of inputs) {
    const band = await reader.band(input, b.r0, b.r1);
    const t1 = (input.endMs - startMs) / HOUR_MS;
    const t0 = previous ? (previous.input.endMs - startMs) / HOUR_MS : t1;
    for (let t = previous ? t0 + 1 : t1; t <= t1; t++) {
      const w = t1 === t0 ? 1 : (t - t0) / (t1 - t0);
      for (let r = b.r0; r < b.r1; r++)
        for (let c = b.c0; c < b.c1; c++) {
          const col = columns.from[c]!;
          const v1 = at(band, ni, b.r1, r, col);
          const v0 = previous ? at(previous.band, ni, b.r1, r, col) : v1;
          out.put(t, r, c, v0 + (v1 - v0) * w);
        }
    }
    previous = { input, band };
  }
  await writeBlock(writer, variable, out.data, b, hours);
}

/**
 * A code at each step, on the mean rates' hourly axis from h0: the hour ending at h takes the code
 * of the first step at or after h, the step that ends the interval holding the hour (a code cannot
 * be interpolated). Inputs are at every step after the first (writeRunStore checks).
 */
async function writeCodes(
  writer: GridStoreWriter,
  reader: BandReader,
  variable: VariableId,
  inputs: Input[],
  b: Block,
  columns: Columns,
  ni: number,
  h0: number,
  hours: number,
): Promise<void> {
  const out = outputBlock(hours, b);
  let from = 0;
  for (const input of inputs) {
    const t1 = (input.endMs - h0) / HOUR_MS;
    if (t1 < from) continue;
    const band = await reader.band(input, b.r0, b.r1);
    for (let t = from; t <= Math.min(t1, hours - 1); t++)
      for (let r = b.r0; r < b.r1; r++) for (let c = b.c0; c < b.c1; c++) out.put(t, r, c, at(band, ni, b.r1, r, columns.from[c]!));
    from = t1 + 1;
  }
  await writeBlock(writer, variable, out.data, b, hours);
}

async function writeRates(
  writer: GridStoreWriter,
  reader: BandReader,
  variable: VariableId,
  inputs: Input[],
  b: Block,
  columns: Columns,
  ni: number,
  h0: number,
  hours: number,
): Promise<void> {
  const out = outputBlock(hours, b);
  for (const input of inputs) {
    const band = await reader.band(input, b.r0, b.r1);
    // The hours (h - 1 h, h] inside the interval (startMs, endMs] the rate is the mean over.
    for (let h = input.startMs + HOUR_MS; h <= input.endMs; h += HOUR_MS) {
      const t = (h - h0) / HOUR_MS;
      for (let r = b.r0; r < b.r1; r++) for (let c = b.c0; c < b.c1; c++) out.put(t, r, c, at(band, ni, b.r1, r, columns.from[c]!));
    }
  }
  await writeBlock(writer, variable, out.data, b, hours);
}

/** Local solar midnight (UTC ms) of the day starting at UTC midnight `dayMs`, at `lon`. */
const localMidnight = (dayMs: number, lon: number) => dayMs - (lon / 15) * HOUR_MS;

/** The UTC dates whose local solar day lies within [startMs, endMs] at every one of the longitudes. */
export function localDays(startMs: number, endMs: number, lons: Float64Array): number[] {
  const west = lons.reduce((m, x) => Math.min(m, x), Infinity);
  const east = lons.reduce((m, x) => Math.max(m, x), -Infinity);
  const days: number[] = [];
  for (let d = Math.floor(startMs / DAY_MS) * DAY_MS - DAY_MS; d <= endMs + DAY_MS; d += DAY_MS)
    if (localMidnight(d, east) >= startMs && localMidnight(d, west) + DAY_MS <= endMs) days.push(d);
  return days;
}

async function writeExtremes(
  writer: GridStoreWriter,
  reader: BandReader,
  variable: VariableId,
  sign: 1 | -1,
  temperature: Input[],
  extremes: Input[],
  b: Block,
  columns: Columns,
  ni: number,
  days: number[],
): Promise<void> {
  const out = outputBlock(days.length, b);
  const nr = b.r1 - b.r0;
  const nc = b.c1 - b.c0;
  const best = new Float32Array(days.length * nr * nc).fill(-Infinity);
  const offer = (d: number, r: number, c: number, v: number) => {
    const k = (d * nr + (r - b.r0)) * nc + (c - b.c0);
    if (sign * v > best[k]!) best[k] = sign * v;
  };
  // The hourly curve is linear between steps: its extreme over a day is at a step inside the
  // day or at one of the day's ends.
  let previous: { input: Input; band: Float32Array } | null = null;
  for (const input of temperature) {
    const band = await reader.band(input, b.r0, b.r1);
    if (previous) {
      const a = previous.input.endMs;
      const z = input.endMs;
      for (let c = b.c0; c < b.c1; c++) {
        const lon = columns.lons[c]!;
        const col = columns.from[c]!;
        days.forEach((day, d) => {
          const ws = localMidnight(day, lon);
          const from = Math.max(a, ws);
          const to = Math.min(z, ws + DAY_MS);
          if (from > to) return;
          for (let r = b.r0; r < b.r1; r++) {
            const v0 = at(previous!.band, ni, b.r1, r, col);
            const v1 = at(band, ni, b.r1, r, col);
            for (const t of [from, to]) offer(d, r, c, v0 + ((v1 - v0) * (t - a)) / (z - a));
          }
        });
      }
    }
    previous = { input, band };
  }
  for (const input of extremes) {
    const band = await reader.band(input, b.r0, b.r1);
    for (let c = b.c0; c < b.c1; c++) {
      const lon = columns.lons[c]!;
      days.forEach((day, d) => {
        const ws = localMidnight(day, lon);
        if (input.startMs < ws || input.endMs > ws + DAY_MS) return;
        for (let r = b.r0; r < b.r1; r++) offer(d, r, c, at(band, ni, b.r1, r, columns.from[c]!));
      });
    }
  }
  for (let k = 0; k < best.length; k++) out.data[k] = Number.isFinite(best[k]!) ? sign * best[k]! : NaN;
  await writeBlock(writer, variable, out.data, b, days.length);
}

/**
 * Writes a C-ordered block [times, rows, columns] of whole chunks, and the same values to the
 * variable's frame copy. When the array is one chunk in
 * time (every run: an hourly axis of at most 8,760 steps), each chunk file is made here in the
 * layout of 0014 (Fortran order: a cell's series contiguous, chunk edges padded with NaN) and
 * written whole; otherwise through the writer.
 */
async function writeBlock(writer: GridStoreWriter, variable: VariableId, data: Float32Array, b: Block, times: number): Promise<void> {
  const frames = writer.layoutOf(framesName(variable));
  await writeFrames(path.join(writer.dir, framesName(variable)), frames.chunks, frames.shape[2]!, { data, times, ...b });
  const { shape, chunks } = writer.layoutOf(variable);
  const [ct, cLat, cLon] = chunks as [number, number, number];
  const nr = b.r1 - b.r0;
  const nc = b.c1 - b.c0;
  if (ct !== shape[0] || ct !== times || b.r0 % cLat !== 0 || b.c0 % cLon !== 0 || (nr !== cLat && b.r1 !== shape[1])) {
    await writer.write(variable, data, [0, b.r0, b.c0], [times, nr, nc]);
    return;
  }
  const ci = b.r0 / cLat;
  for (let c0 = b.c0; c0 < b.c1; c0 += cLon) {
    const chunk = new Float32Array(ct * cLat * cLon).fill(NaN);
    for (let j = 0; j < cLon && c0 + j < b.c1; j++)
      for (let i = 0; i < nr; i++) {
        const cell = (i + cLat * j) * ct;
        for (let t = 0; t < times; t++) chunk[cell + t] = data[(t * nr + i) * nc + (c0 - b.c0 + j)]!;
      }
    await fs.writeFile(path.join(writer.dir, variable, `0.${ci}.${c0 / cLon}`), new Uint8Array(chunk.buffer));
  }
}

/** Bytes of the files below dir. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? await directoryBytes(p) : (await fs.stat(p)).size;
  }
  return total;
}
