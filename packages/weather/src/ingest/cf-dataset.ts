/**
 * The CF reading shared by NetCDF classic and NetCDF-4: find the latitude, longitude and time
 * coordinate variables (CF 1.11 sections 4.1, 4.2, 4.4), and take every variable on
 * (time, lat, lon) or (lat, lon), allowing extra dimensions of length 1 (a `height` of 2 m,
 * a single level) to be dropped. Everything else is skipped with a reason.
 *
 * Data are not read here: each variable reads and unpacks a block (times x rows x columns) on
 * demand, so ingest holds a slab at a time, never a whole variable (slab-plan.ts).
 */
import type { TimeCell } from '../grid/grid-source.js';
import { constantTimeCell, decodeCfTimes, parseCfTimeUnits } from '../zarr/cf-time.js';
import { ENCODING_ATTRS, unpack } from './cf-unpack.js';
import { IngestError } from './errors.js';
import type { SourceFormat } from './detect-format.js';

/** A NetCDF variable as both readers present it. */
export interface NcVariable {
  name: string;
  dims: string[];
  shape: number[];
  attrs: Record<string, unknown>;
  /** 'float' for floating point, 'int' for integers (with bits), 'other' for text and the rest */
  kind: 'float' | 'int' | 'other';
  bits: number;
  /** the whole variable, C order (coordinates: small) */
  read(): Promise<ArrayLike<number | bigint>>;
  /** the hyperslab of `count` values from `start` on every axis, C order */
  readBlock(start: readonly number[], count: readonly number[]): Promise<ArrayLike<number | bigint>>;
}

export interface NcFile {
  format: SourceFormat;
  attrs: Record<string, unknown>;
  variables: NcVariable[];
  /** releases the open file; the variables cannot be read after it */
  close(): Promise<void>;
}

/** Reads times [t0, t0 + nt), rows [r0, r0 + nr), columns [c0, c0 + nc) as C-ordered [t][row][col]. */
export type BlockReader = (t0: number, nt: number, r0: number, nr: number, c0: number, nc: number) => Promise<Float32Array>;

export interface SourceVariable {
  name: string;
  attrs: Record<string, unknown>;
  hasTime: boolean;
  /**
   * Unpacked float32, NaN for missing, in source order: rows and columns as the file has them.
   * A static field is read with t0 = 0, nt = 1.
   */
  read: BlockReader;
}

/** A decoded grid in the source's own coordinate order (normalise-grid.ts fixes that). */
export interface DecodedGrid {
  format: SourceFormat;
  attrs: Record<string, unknown>;
  lats: number[];
  lons: number[];
  /** epoch ms, or null when no variable has a time axis */
  times: number[] | null;
  /**
   * The cell each time stands for, as offsets from it (grid-source.ts TimeCell), from the time
   * coordinate's bounds (CF 1.11 §7.1) where they are the same at every step; absent without them
   */
  timeCell?: TimeCell;
  variables: SourceVariable[];
  skipped: Array<{ name: string; reason: string }>;
  /** releases the source file */
  close(): Promise<void>;
}

function isLat(v: NcVariable): boolean {
  const u = String(v.attrs.units ?? '');
  return v.attrs.standard_name === 'latitude' || /^degrees?_?n(orth)?$/i.test(u) || (v.attrs.axis === 'Y' && /^lat/i.test(v.name));
}

function isLon(v: NcVariable): boolean {
  const u = String(v.attrs.units ?? '');
  return v.attrs.standard_name === 'longitude' || /^degrees?_?e(ast)?$/i.test(u) || (v.attrs.axis === 'X' && /^lon/i.test(v.name));
}

function isTime(v: NcVariable): boolean {
  return v.attrs.standard_name === 'time' || v.attrs.axis === 'T' || /\bsince\b/.test(String(v.attrs.units ?? ''));
}

/** A coordinate variable: one-dimensional, named after its dimension (NetCDF Users Guide 2.3.1). */
function coordinate(file: NcFile, test: (v: NcVariable) => boolean, what: string): NcVariable {
  const found = file.variables.find((v) => v.dims.length === 1 && v.dims[0] === v.name && test(v));
  if (!found) {
    const aux = file.variables.find((v) => test(v) && v.dims.length === 2);
    if (aux) {
      throw new IngestError(
        `${what} is two-dimensional (${aux.name}): curvilinear grids are not supported, regrid to a regular latitude/longitude grid first`,
      );
    }
    throw new IngestError(`no ${what} coordinate variable (CF 4.1/4.2): only regular latitude/longitude grids can be ingested`);
  }
  return found;
}

export async function cfToGrid(file: NcFile): Promise<DecodedGrid> {
  const latVar = coordinate(file, isLat, 'latitude');
  const lonVar = coordinate(file, isLon, 'longitude');
  const timeVar = file.variables.find((v) => v.dims.length === 1 && v.dims[0] === v.name && v !== latVar && v !== lonVar && isTime(v));
  const lats = Array.from(await latVar.read(), Number);
  const lons = Array.from(await lonVar.read(), Number);
  let times: number[] | null = null;
  let timeCell: TimeCell | undefined;
  if (timeVar) {
    const enc = parseCfTimeUnits(
      String(timeVar.attrs.units ?? ''),
      timeVar.attrs.calendar === undefined ? undefined : String(timeVar.attrs.calendar),
    );
    times = decodeCfTimes(Array.from(await timeVar.read(), Number), enc);
    // CF 1.11 §7.1: the bounds variable is [time, 2], in the coordinate's units when it states none.
    const bounds = file.variables.find((v) => v.name === timeVar.attrs.bounds);
    if (bounds && bounds.dims.length === 2 && bounds.dims[0] === timeVar.name && bounds.shape[1] === 2) {
      timeCell = constantTimeCell(times, decodeCfTimes(Array.from(await bounds.read(), Number), enc)) ?? undefined;
    }
  }
  // The time bounds describe the time coordinate (CF 1.11 §7.1): read above, not data.
  const coordNames = new Set([latVar.name, lonVar.name, timeVar?.name, timeCell ? String(timeVar?.attrs.bounds) : undefined]);
  const sizeOf = new Map<string, number>();
  for (const v of file.variables) v.dims.forEach((d, k) => sizeOf.set(d, v.shape[k] ?? 0));

  const variables: SourceVariable[] = [];
  const skipped: DecodedGrid['skipped'] = [];
  for (const v of file.variables) {
    // Coordinate variables (a `height` of 2 m, a level) describe dimensions, not data.
    if (coordNames.has(v.name) || (v.dims.length === 1 && v.dims[0] === v.name)) continue;
    if (v.kind === 'other') {
      skipped.push({ name: v.name, reason: 'not numeric' });
      continue;
    }
    // Dimensions of length one carry no information for a (time, lat, lon) array.
    const dims = v.dims.filter((d, k) => (v.shape[k] ?? sizeOf.get(d)) !== 1 || coordNames.has(d));
    const hasTime = timeVar !== undefined && dims.length === 3 && dims[0] === timeVar.name;
    const spatial = dims[dims.length - 2] === latVar.name && dims[dims.length - 1] === lonVar.name;
    if (!spatial || !(dims.length === 2 || hasTime)) {
      const why =
        dims.includes(latVar.name) && dims.includes(lonVar.name)
          ? `dimensions (${v.dims.join(', ')}) are not (time, lat, lon) or (lat, lon)`
          : 'not on the latitude/longitude grid';
      skipped.push({ name: v.name, reason: why });
      continue;
    }
    const attrs: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v.attrs)) if (!ENCODING_ATTRS.has(k)) attrs[k] = val;
    variables.push({ name: v.name, attrs, hasTime, read: blockReader(v, hasTime ? timeVar.name : undefined, latVar.name, lonVar.name) });
  }
  if (variables.length === 0) {
    const reasons = skipped.map((s) => `${s.name}: ${s.reason}`).join('; ');
    throw new IngestError(`no variable on the (time, lat, lon) grid${reasons ? ` (${reasons})` : ''}`);
  }
  return {
    format: file.format,
    attrs: file.attrs,
    lats,
    lons,
    times: variables.some((v) => v.hasTime) ? times : null,
    ...(timeCell ? { timeCell } : {}),
    variables,
    skipped,
    close: () => file.close(),
  };
}

/**
 * A variable's block reader: time, latitude and longitude map to their axes, every other
 * (length-one) axis is read at index 0.
 */
function blockReader(v: NcVariable, time: string | undefined, lat: string, lon: string): BlockReader {
  const axis = (name: string | undefined) => (name === undefined ? -1 : v.dims.indexOf(name));
  const [kt, ky, kx] = [axis(time), axis(lat), axis(lon)];
  return async (t0, nt, r0, nr, c0, nc) => {
    const start = v.dims.map(() => 0);
    const count = v.dims.map(() => 1);
    if (kt >= 0) [start[kt], count[kt]] = [t0, nt];
    else if (t0 !== 0 || nt !== 1) throw new Error(`${v.name} has no time axis`);
    [start[ky], count[ky]] = [r0, nr];
    [start[kx], count[kx]] = [c0, nc];
    return unpack(await v.readBlock(start, count), v.attrs, { kind: v.kind === 'int' ? 'int' : 'float', bits: v.bits });
  };
}
