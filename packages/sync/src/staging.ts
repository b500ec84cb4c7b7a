/**
 * A run's steps as they arrive, each in a file of its own under the run's staging directory
 * (docs/decisions/0250-synced-runs-staged-then-published.md): the converted fields of one step,
 * written beside and renamed into place, so after a kill a step is there whole or not at all and
 * a resumed sync fetches only the steps that are not. The run's store is made from these files
 * once every step is in (run-store.ts).
 *
 * A file: 4 bytes little-endian header length, the header (JSON: grid and fields), then each
 * field's values as float32 little-endian, rows north to south as the GRIB grid holds them.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { calendarMs } from '@fieldcast/calendar';
import type { LatLonGrid } from '@fieldcast/grib2';
import { temporaryBeside, type VariableId } from '@fieldcast/weather';
import { StepDataError } from './errors.js';
import type { ConvertedStep } from './run.js';

export interface StagedGrid {
  ni: number;
  nj: number;
  lat0: number;
  lon0: number;
  dLat: number;
  dLon: number;
}

export interface StagedField {
  variable: VariableId;
  startMs: number;
  endMs: number;
}

export interface StagedStep {
  step: number;
  file: string;
  grid: StagedGrid;
  fields: StagedField[];
  /** Byte offset of the first field's values. */
  dataOffset: number;
}

const STEP_FILE = /^step-(\d{3,4})\.f32$/;

const stepFile = (dir: string, step: number) => path.join(dir, `step-${String(step).padStart(3, '0')}.f32`);

export function gridOf(g: LatLonGrid | StagedGrid): StagedGrid {
  return { ni: g.ni, nj: g.nj, lat0: g.lat0, lon0: g.lon0, dLat: g.dLat, dLon: g.dLon };
}

export const sameGrid = (a: StagedGrid, b: StagedGrid) =>
  a.ni === b.ni && a.nj === b.nj && a.lat0 === b.lat0 && a.lon0 === b.lon0 && a.dLat === b.dLat && a.dLon === b.dLon;

const describeGrid = (g: StagedGrid) => `${g.ni} x ${g.nj} from ${g.lat0}, ${g.lon0} by ${g.dLat}, ${g.dLon}`;

/** A staged step's file that cannot be read whole, and why. */
export interface UnreadableStep {
  step: number;
  file: string;
  reason: string;
}

const isGrid = (g: unknown): g is StagedGrid => {
  const { ni, nj, lat0, lon0, dLat, dLon } = (g ?? {}) as Record<string, unknown>;
  return [ni, nj].every((n) => Number.isInteger(n) && (n as number) > 0) && [lat0, lon0, dLat, dLon].every(Number.isFinite);
};
const isField = (f: unknown): f is StagedField => {
  const { variable, startMs, endMs } = (f ?? {}) as Record<string, unknown>;
  return typeof variable === 'string' && Number.isFinite(startMs) && Number.isFinite(endMs);
};

/**
 * The header of a staged step, checked against the file's length: a file cut short or written
 * over (a crash, a disk fault) is refused here (StepDataError) rather than published with values
 * missing or taken from the wrong bytes.
 */
async function readHeader(file: string): Promise<Omit<StagedStep, 'step' | 'file'>> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const bad = (detail: string) => new StepDataError(`${file} ${detail}`);
    if (size < 4) throw bad(`holds ${size} bytes, fewer than its header's length`);
    const lengthBytes = Buffer.alloc(4);
    await handle.read(lengthBytes, 0, 4, 0);
    const length = lengthBytes.readUInt32LE(0);
    if (length === 0 || 4 + length > size) throw bad(`holds ${size} bytes, its header ${length} after its length`);
    const text = Buffer.alloc(length);
    await handle.read(text, 0, length, 4);
    let header: { grid?: unknown; fields?: unknown };
    try {
      header = JSON.parse(text.toString('utf8')) as typeof header;
    } catch (error) {
      throw bad(`has a header that is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const { grid, fields } = header ?? {};
    if (!isGrid(grid) || !Array.isArray(fields) || !fields.every(isField)) throw bad('has a header without its grid and fields');
    const expected = 4 + length + fields.length * grid.ni * grid.nj * 4;
    if (size !== expected) throw bad(`holds ${size} bytes, its header says ${expected}`);
    return { grid, fields, dataOffset: 4 + length };
  } finally {
    await handle.close();
  }
}

/** `YYYYMMDDHH` of a run's start: the name of its staging directory and of its store. */
export const runStamp = (runMs: number): string => new Date(runMs).toISOString().slice(0, 13).replace(/[-T]/g, '');

/**
 * The run start a `YYYYMMDDHH` name stands for, as epoch ms; NaN for another name. The fields are
 * read on the one calendar rule (docs/decisions/0362-one-calendar-rule.md): a name no calendar
 * time has (month 13, 31 February, hour 24) is no run's, not the time those fields roll over to.
 */
export function runOfStamp(name: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(name);
  return (m && calendarMs(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]))) ?? Number.NaN;
}

/** The runs with a staging directory under a source's directory: each run's start and directory. */
export async function stagingDirs(sourceDir: string): Promise<{ initMs: number; dir: string }[]> {
  const names = await fs.readdir(path.join(sourceDir, 'staging')).catch(() => [] as string[]);
  return names
    .map((name) => ({ initMs: runOfStamp(name), dir: path.join(sourceDir, 'staging', name) }))
    .filter((r) => Number.isFinite(r.initMs));
}

/**
 * The steps staged in `dir`, in step order (none when the directory does not exist), and the step
 * files that cannot be read whole: the sync removes those and fetches their steps again, a reader
 * leaves them out.
 */
export async function readStaging(dir: string): Promise<{ steps: StagedStep[]; unreadable: UnreadableStep[] }> {
  const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const steps: StagedStep[] = [];
  const unreadable: UnreadableStep[] = [];
  for (const name of names) {
    const m = STEP_FILE.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    try {
      steps.push({ step: Number(m[1]), file, ...(await readHeader(file)) });
    } catch (error) {
      if (!(error instanceof StepDataError)) throw error;
      unreadable.push({ step: Number(m[1]), file, reason: error.message });
    }
  }
  return { steps: steps.sort((a, b) => a.step - b.step), unreadable };
}

/** The steps staged in `dir` that can be read whole, in step order. */
export const stagedSteps = async (dir: string): Promise<StagedStep[]> => (await readStaging(dir)).steps;

/**
 * Writes one converted step whole (a temporary file, flushed, then renamed); refused when its grid
 * is not the run's (the grid of the steps staged before it). Returns the bytes written.
 */
export async function stageStep(dir: string, step: ConvertedStep, runGrid: StagedGrid | null): Promise<number> {
  const grid = gridOf(step.grid);
  if (runGrid && !sameGrid(grid, runGrid))
    throw new StepDataError(`step ${step.step} h is on a ${describeGrid(grid)} grid, the run's steps on ${describeGrid(runGrid)}`);
  const n = grid.ni * grid.nj;
  for (const f of step.fields)
    if (f.values.length !== n) throw new StepDataError(`step ${step.step} h: ${f.variable} has ${f.values.length} values, the grid ${n}`);
  const header = Buffer.from(
    JSON.stringify({ grid, fields: step.fields.map(({ variable, startMs, endMs }) => ({ variable, startMs, endMs })) }),
    'utf8',
  );
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length, 0);
  await fs.mkdir(dir, { recursive: true });
  const target = stepFile(dir, step.step);
  const tmp = temporaryBeside(target);
  const handle = await fs.open(tmp, 'w');
  let bytes = 4 + header.length;
  try {
    try {
      await handle.write(size);
      await handle.write(header);
      for (const f of step.fields) {
        const data = Buffer.from(f.values.buffer, f.values.byteOffset, f.values.byteLength);
        // Float32Array is the platform's byte order; stores and step files are little endian.
        if (!LITTLE_ENDIAN) data.swap32();
        await handle.write(data);
        bytes += data.length;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, target);
  } catch (error) {
    // A write that failed (a full disk) leaves nothing: each attempt's temporary name is its own,
    // so one left behind would never be written over.
    await fs.rm(tmp, { force: true });
    throw error;
  }
  return bytes;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Rows [row0, row1) (north to south) of field `index` of a staged step. */
export async function readRows(
  handle: fs.FileHandle,
  staged: StagedStep,
  index: number,
  row0: number,
  row1: number,
): Promise<Float32Array> {
  const { ni, nj } = staged.grid;
  const out = new Float32Array((row1 - row0) * ni);
  const bytes = Buffer.from(out.buffer);
  const at = staged.dataOffset + (index * ni * nj + row0 * ni) * 4;
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, at);
  if (bytesRead !== bytes.length) throw new StepDataError(`${staged.file} is shorter than its header says`);
  if (!LITTLE_ENDIAN) bytes.swap32();
  return out;
}
