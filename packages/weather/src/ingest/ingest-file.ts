/**
 * `fieldcast ingest <file>`: a CF NetCDF (classic or NetCDF-4) or GeoTIFF file becomes a
 * Fieldcast Zarr store (zarr/writer.ts) and an entry in the catalog file of stores.
 *
 * Values are stored as the file holds them after CF unpacking (scale_factor/add_offset,
 * missing values to NaN), in the file's units: the store is a lossless float32 copy, and
 * ZarrSource converts units on read. Variables recognised as contract variables
 * (cf-variables.ts) are renamed to their VariableId and keep their name in `original_name`.
 *
 * Memory: every variable is copied in slabs of whole Zarr chunks of at most `slabBytes`
 * (slab-plan.ts), each read from the source as one block (or a few, where the grid is
 * reoriented), so peak memory is a small multiple of a slab whatever the size of the file
 * (docs/decisions/0016-ingest.md).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { identifyVariable, unitsFault } from '../zarr/cf-variables.js';
import { GridStoreWriter, type ZarrCompressor } from '../zarr/writer.js';
import { ZarrSource } from '../zarr/zarr-source.js';
import { cfToGrid, type DecodedGrid, type NcFile } from './cf-dataset.js';
import { detectFormat, type SourceFormat } from './detect-format.js';
import { IngestError } from './errors.js';
import { type GeotiffTimeOptions, readGeotiff } from './geotiff-grid.js';
import { readNetcdf4 } from './netcdf4.js';
import { readNetcdfClassic } from './netcdf-classic.js';
import { type NormalisedGrid, normaliseGrid } from './normalise-grid.js';
import { planSlabs } from './slab-plan.js';
import { type IngestedStore, registerIngestedStore } from './store-catalog.js';

export interface IngestOptions {
  /** directory the store is written into, as `<outDir>/<id>.zarr` */
  outDir: string;
  /** YAML catalog file to register the store in (created if missing) */
  catalogPath?: string;
  /** store id (default: the file name without extension, lower case) */
  id?: string;
  /** product name reported by productOf for the store's values (default: the id) */
  product?: string;
  /** replace an existing store of the same id */
  overwrite?: boolean;
  /** time step in ms for a file whose time axis has one value (it cannot be inferred) */
  stepMs?: number;
  /** GeoTIFF only: time of band 1, step between bands, variable name and CF attributes */
  geotiff?: GeotiffTimeOptions;
  /** default: the writer's ("none", so point series are read as byte ranges) */
  compressor?: ZarrCompressor;
  /**
   * Upper bound of one slab, in bytes of float32 (default DEFAULT_SLAB_BYTES); a slab is
   * never smaller than one chunk. Peak memory is a small multiple of it (the source block, its
   * reoriented copy, the chunks being encoded), not of the file.
   */
  slabBytes?: number;
}

/** 32 MiB: about fourteen hourly [8760, 8, 8] chunks, or eight steps of a 0.25° global grid. */
export const DEFAULT_SLAB_BYTES = 32 * 1024 * 1024;

export interface IngestResult {
  id: string;
  storePath: string;
  format: SourceFormat;
  entry: IngestedStore;
  /** source variables not on the grid, with the reason */
  skipped: Array<{ name: string; reason: string }>;
  /** how the data were copied: the number of slabs and the largest one, in values */
  slabs: { count: number; largestValues: number };
}

function storeId(file: string): string {
  const base = path.basename(file).replace(/\.(nc4?|cdf|netcdf|h5|hdf5?|tiff?|gtiff)$/i, '');
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'store'
  );
}

/** A Zarr array name: NetCDF names may hold characters that are awkward in paths and URLs. */
function arrayName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** Attributes that survive JSON: strings, finite numbers and arrays of them. */
function jsonAttrs(attrs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
    else if (typeof v === 'bigint') out[k] = Number(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) out[k] = v;
  }
  return out;
}

/** A refusal names the file it is about, once (some readers name it themselves). */
function refusal(file: string, err: unknown): IngestError {
  const message = (err as Error).message;
  const named = [file, path.resolve(file)].some((f) => message.startsWith(`${f}:`));
  return new IngestError(named ? message : `${file}: ${message}`);
}

async function holdsFiles(dir: string): Promise<boolean> {
  return fs.readdir(dir).then(
    (entries) => entries.length > 0,
    () => false,
  );
}

/** The CF reading of an opened NetCDF file; the file is closed if it is not a usable grid. */
async function decodeCf(file: NcFile): Promise<DecodedGrid> {
  try {
    return await cfToGrid(file);
  } catch (err) {
    await file.close();
    throw err;
  }
}

/** Opens the source and reads its metadata; the data stay in the file until a slab asks. */
async function decode(file: string, format: SourceFormat, id: string, options: IngestOptions): Promise<DecodedGrid> {
  switch (format) {
    case 'netcdf-classic':
      return decodeCf(await readNetcdfClassic(file));
    case 'netcdf4':
      return decodeCf(await readNetcdf4(file));
    case 'geotiff':
      return readGeotiff(file, id, options.geotiff);
  }
}

export async function ingestFile(file: string, options: IngestOptions): Promise<IngestResult> {
  const source = path.resolve(file);
  const stat = await fs.stat(source).catch(() => null);
  if (!stat?.isFile()) throw new IngestError(`${file}: no such file`);
  const format = await detectFormat(source);
  const id = options.id ?? storeId(source);
  if (!/^[A-Za-z0-9._-]+$/.test(id)) throw new IngestError(`store id "${id}" may only hold letters, digits, ".", "_" and "-"`);

  let decoded: DecodedGrid;
  try {
    decoded = await decode(source, format, id, options);
  } catch (err) {
    throw refusal(file, err);
  }
  const storePath = path.resolve(options.outDir, `${id}.zarr`);
  const slabs = { count: 0, largestValues: 0 };
  let grid: NormalisedGrid;
  let staging: string | undefined;
  try {
    grid = normaliseGrid(decoded, options.geotiff?.stepMs ?? options.stepMs);
    // A contract variable in units that are not its quantity's (a bare "C" is the coulomb) is
    // refused, naming it, rather than stored as an array nothing serves.
    const unitFaults = grid.variables.flatMap((v) => unitsFault(v.name, v.attrs) ?? []);
    if (unitFaults.length > 0) throw new IngestError(unitFaults.join('; '));
    if (!options.overwrite && (await holdsFiles(storePath))) {
      throw new IngestError(`${storePath} exists and is not empty (pass --overwrite to replace it)`);
    }
    // Written beside its place and renamed into it once whole, so a file that fails part way
    // leaves no store a reader could open, and a failed overwrite keeps the old store.
    await fs.mkdir(path.dirname(storePath), { recursive: true });
    staging = await fs.mkdtemp(path.join(path.dirname(storePath), `.${id}.zarr.`));
    await writeStore(grid, staging, source, id, options, slabs);
    await fs.rm(storePath, { recursive: true, force: true });
    await fs.rename(staging, storePath);
  } catch (err) {
    if (staging) await fs.rm(staging, { recursive: true, force: true });
    throw refusal(file, err);
  } finally {
    await decoded.close();
  }

  // Read the store back: what is registered is what a ZarrSource sees.
  const zs = await ZarrSource.open(storePath, { cacheBytes: 0 });
  const cov = zs.coverage();
  const entry: IngestedStore = {
    id,
    path: storePath,
    source,
    format,
    ingestedAt: new Date().toISOString(),
    variables: zs.arrays().map((a) => ({
      name: a.name,
      variable: a.variable,
      standardName: a.standardName,
      units: a.units,
      cellMethods: a.cellMethods,
    })),
    grid: { ...zs.grid },
    time: grid.times ? { start: new Date(cov.startMs).toISOString(), end: new Date(cov.endMs).toISOString(), stepMs: grid.stepMs } : null,
  };
  await zs.close();
  if (options.catalogPath) await registerIngestedStore(options.catalogPath, entry);
  return { id, storePath, format, entry, skipped: grid.skipped, slabs };
}

/** Writes the store, copying every variable slab by slab (whole chunks, slab-plan.ts). */
async function writeStore(
  grid: NormalisedGrid,
  storePath: string,
  source: string,
  id: string,
  options: IngestOptions,
  slabs: { count: number; largestValues: number },
): Promise<void> {
  const writer = await GridStoreWriter.create(storePath, {
    lats: grid.lats,
    lons: grid.lons,
    ...(options.compressor ? { compressor: options.compressor } : {}),
    overwrite: options.overwrite ?? false,
    attributes: {
      ...jsonAttrs(grid.attrs),
      id,
      title: typeof grid.attrs.title === 'string' ? grid.attrs.title : id,
      product: options.product ?? id,
      source_file: path.basename(source),
      // CF 2.6.2: history gets a line per program that modified the data.
      history: [
        typeof grid.attrs.history === 'string' ? grid.attrs.history : '',
        `${new Date().toISOString()} fieldcast ingest ${path.basename(source)}`,
      ]
        .filter(Boolean)
        .join('\n'),
    },
  });
  if (grid.variables.some((v) => v.hasTime)) {
    await writer.addTimeAxis({
      name: 'time',
      startMs: grid.startMs,
      stepMs: grid.stepMs,
      length: grid.nt,
      ...(grid.timeCell ? { cell: grid.timeCell } : {}),
    });
  }
  const budget = Math.max(1, Math.floor((options.slabBytes ?? DEFAULT_SLAB_BYTES) / Float32Array.BYTES_PER_ELEMENT));
  const taken = new Set(['time', 'lat', 'lon']);
  for (const v of grid.variables) {
    const mapped = identifyVariable(v.name, v.attrs);
    let name = mapped && !taken.has(mapped) ? mapped : arrayName(v.name);
    if (taken.has(name)) name = `${name}_${taken.size}`;
    taken.add(name);
    await writer.addVariable({
      name,
      ...(v.hasTime ? { time: 'time' } : {}),
      attributes: { ...jsonAttrs(v.attrs), ...(name !== v.name ? { original_name: v.name } : {}) },
    });
    // A static field is planned as one time step, so both kinds go through the same reader.
    const layout = writer.layoutOf(name);
    const shape = v.hasTime ? layout.shape : [1, ...layout.shape];
    const chunks = v.hasTime ? layout.chunks : [1, ...layout.chunks];
    for (const slab of planSlabs(shape, chunks, budget)) {
      const [t0, i0, j0] = slab.start as [number, number, number];
      const [nt, ni, nj] = slab.shape as [number, number, number];
      const block = await v.read(t0, nt, i0, ni, j0, nj);
      slabs.count++;
      slabs.largestValues = Math.max(slabs.largestValues, block.length);
      await writer.write(name, block, v.hasTime ? slab.start : [i0, j0], v.hasTime ? slab.shape : [ni, nj]);
    }
  }
  await writer.close();
}
