/**
 * Ingest in slabs (docs/decisions/0016-ingest.md):
 * the slab planner, the source-run mapping behind reoriented reads, and ingests of files many
 * slabs large that must read back exactly and byte for byte as a one-slab ingest.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zarr from 'zarrita';
import { planSlabs, slabChunks } from '../src/ingest/slab-plan.js';
import { sourceRuns } from '../src/ingest/normalise-grid.js';
import { FileStore, ingestFile } from '../src/stores.js';
import { type NcSpec, writeCdf1, writeGeotiffFile, writeNetcdf4 } from './ingest-fixtures.js';

const HOUR = 3_600_000;
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'fieldcast-slabs-'));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('planSlabs', () => {
  /** Every element is in exactly one slab, and every slab is a box of whole chunks. */
  function checkCover(shape: number[], chunks: number[], budget: number): ReturnType<typeof planSlabs> {
    const slabs = planSlabs(shape, chunks, budget);
    const seen = new Uint8Array(shape.reduce((a, b) => a * b, 1));
    const chunkValues = chunks.reduce((a, c, d) => a * Math.min(c, shape[d]!), 1);
    for (const s of slabs) {
      const values = s.shape.reduce((a, b) => a * b, 1);
      expect(values).toBeLessThanOrEqual(Math.max(budget, chunkValues));
      s.start.forEach((st, d) => {
        expect(st % chunks[d]!).toBe(0);
        // a slab ends on a chunk boundary or at the end of the array
        const end = st + s.shape[d]!;
        expect(end === shape[d] || end % chunks[d]! === 0).toBe(true);
      });
      const idx = s.start.slice();
      for (;;) {
        seen[idx.reduce((a, x, d) => a * shape[d]! + x, 0)]!++;
        let d = shape.length - 1;
        for (; d >= 0; d--) {
          idx[d] = idx[d]! + 1;
          if (idx[d]! < s.start[d]! + s.shape[d]!) break;
          idx[d] = s.start[d]!;
        }
        if (d < 0) break;
      }
    }
    expect(seen.every((n) => n === 1)).toBe(true);
    return slabs;
  }

  it('covers the array exactly once with whole-chunk slabs within the budget', () => {
    checkCover([50, 20, 24], [50, 8, 8], 50 * 8 * 8); // one chunk per slab
    checkCover([50, 20, 24], [50, 8, 8], 50 * 8 * 8 * 3 + 7); // a row band of chunks
    checkCover([50, 20, 24], [50, 8, 8], 1e9); // everything at once
    checkCover([7300, 5, 13], [3650, 8, 8], 3650 * 5 * 13); // clipped chunks at the ends
    checkCover([1, 300, 260], [1, 128, 128], 128 * 128 * 2);
  });

  it('takes the trailing axes whole first, and never less than one chunk', () => {
    expect(slabChunks([50, 20, 24], [50, 8, 8], 50 * 8 * 24)).toEqual([1, 1, 3]); // full rows
    expect(slabChunks([50, 20, 24], [50, 8, 8], 50 * 16 * 24)).toEqual([1, 2, 3]);
    expect(slabChunks([50, 20, 24], [50, 8, 8], 50 * 8 * 16)).toEqual([1, 1, 2]);
    expect(slabChunks([50, 20, 24], [50, 8, 8], 10)).toEqual([1, 1, 1]); // below one chunk
    expect(slabChunks([8784, 721, 1440], [8784, 8, 8], (32 * 2 ** 20) / 4)).toEqual([1, 1, 14]);
    expect(planSlabs([0, 3, 3], [1, 3, 3], 100)).toEqual([]);
  });

  it('bounds a year of hourly 0.25° global data to a few chunks a slab', () => {
    const shape = [8784, 721, 1440];
    const chunks = [8784, 8, 8];
    const budget = (32 * 2 ** 20) / 4;
    const slabs = planSlabs(shape, chunks, budget);
    const largest = Math.max(...slabs.map((s) => s.shape.reduce((a, b) => a * b, 1)));
    expect(largest).toBeLessThanOrEqual(budget);
    // the variable is 3.6e10 bytes; a slab is at most 32 MiB
    expect((shape.reduce((a, b) => a * b, 1) * 4) / (largest * 4)).toBeGreaterThan(1000);
  });
});

describe('sourceRuns', () => {
  it('splits a store range where the source index jumps (a rotated or flipped axis)', () => {
    const rotated = (j: number) => (j + 13) % 24;
    expect(sourceRuns(8, 8, rotated)).toEqual([
      { at: 0, length: 3, first: 21, dir: 1 },
      { at: 3, length: 5, first: 0, dir: 1 },
    ]);
    expect(sourceRuns(0, 5, (i) => 19 - i)).toEqual([{ at: 0, length: 5, first: 19, dir: -1 }]);
    expect(sourceRuns(3, 1, (i) => i)).toEqual([{ at: 0, length: 1, first: 3, dir: 1 }]);
  });
});

/**
 * A file many slabs large as climate archives lay it out: latitude north to south, longitude
 * 0..360 (so every block is flipped and the seam of the rotation falls inside a slab), a float
 * variable with a fill value and a packed int16 one. 50 hourly steps x 20 x 24.
 */
const NT = 50;
const NY = 20;
const NX = 24;
const LATS = Array.from({ length: NY }, (_, r) => 59.5 - r * 0.5); // descending
const LONS = Array.from({ length: NX }, (_, c) => c * 15); // 0..345
const value = (t: number, r: number, c: number) => 200 + t + r * 0.25 + c * 0.0625; // exact in float32
const isHole = (t: number, r: number, c: number) => (t * 7 + r * 3 + c) % 97 === 0;
const packed = (t: number, r: number, c: number) => ((t * 131 + r * 17 + c * 5) % 2000) - 1000;

function bigSpec(record: boolean): NcSpec {
  const tas: number[] = [];
  const pr: number[] = [];
  for (let t = 0; t < NT; t++) {
    for (let r = 0; r < NY; r++) {
      for (let c = 0; c < NX; c++) {
        tas.push(isHole(t, r, c) ? -999 : value(t, r, c));
        pr.push(isHole(t, c, r) ? -32767 : packed(t, r, c));
      }
    }
  }
  return {
    dims: [
      { name: 'time', size: NT, record },
      { name: 'lat', size: NY },
      { name: 'lon', size: NX },
    ],
    vars: [
      {
        name: 'time',
        dims: ['time'],
        type: 'double',
        attrs: { units: 'hours since 2021-06-01 00:00:00', standard_name: 'time' },
        data: Array.from({ length: NT }, (_, t) => t),
      },
      { name: 'lat', dims: ['lat'], type: 'float', attrs: { units: 'degrees_north', standard_name: 'latitude' }, data: LATS },
      { name: 'lon', dims: ['lon'], type: 'float', attrs: { units: 'degrees_east', standard_name: 'longitude' }, data: LONS },
      {
        name: 'tas',
        dims: ['time', 'lat', 'lon'],
        type: 'float',
        attrs: { units: 'K', standard_name: 'air_temperature', _FillValue: { type: 'float', values: [-999] } },
        data: tas,
      },
      {
        name: 'pr',
        dims: ['time', 'lat', 'lon'],
        type: 'short',
        attrs: {
          units: 'kg m-2 s-1',
          standard_name: 'precipitation_flux',
          scale_factor: 0.25,
          add_offset: 1000,
          _FillValue: { type: 'short', values: [-32767] },
        },
        data: pr,
      },
    ],
  };
}

/** Store column j holds source column (j + 13) % 24 (lon -165 first); store row i source row 19 - i. */
const srcCol = (j: number) => (j + 13) % NX;
const srcRow = (i: number) => NY - 1 - i;

/** The whole [t, lat, lon] array as a C-ordered Float32Array (zarrita keeps an F-order array's strides). */
async function readArray(store: string, name: string): Promise<Float32Array> {
  const arr = await zarr.open.v2(zarr.root(new FileStore(store)).resolve(name), { kind: 'array' });
  const { data, shape, stride } = await zarr.get(arr);
  const [nt, ny, nx] = shape as [number, number, number];
  const out = new Float32Array(nt * ny * nx);
  for (let t = 0; t < nt; t++) {
    for (let i = 0; i < ny; i++) {
      for (let j = 0; j < nx; j++) out[(t * ny + i) * nx + j] = (data as Float32Array)[t * stride[0]! + i * stride[1]! + j * stride[2]!]!;
    }
  }
  return out;
}

async function chunkBytes(store: string, name: string): Promise<Map<string, Buffer>> {
  const files = (await fs.readdir(path.join(store, name))).filter((f) => /^\d/.test(f)).sort();
  return new Map(await Promise.all(files.map(async (f) => [f, await fs.readFile(path.join(store, name, f))] as const)));
}

describe('ingest in slabs', () => {
  // One chunk is [50, 8, 8] = 3200 values: the smallest possible slab.
  const ONE_CHUNK = NT * 8 * 8 * 4;

  it.each([
    ['NetCDF-4', 'nc4', false],
    ['NetCDF classic with a record dimension', 'nc3', true],
  ] as const)('%s: many slabs read back exactly and as a one-slab ingest does', async (_label, kind, record) => {
    const file = path.join(tmp, `big-${kind}.nc`);
    if (record) await writeCdf1(file, bigSpec(true));
    else await writeNetcdf4(file, bigSpec(false));
    const small = await ingestFile(file, { outDir: path.join(tmp, `${kind}-small`), slabBytes: ONE_CHUNK });
    const whole = await ingestFile(file, { outDir: path.join(tmp, `${kind}-whole`) });
    // 3 x 3 chunks per variable, one slab each, never more than a chunk in memory at once.
    expect(small.slabs).toEqual({ count: 18, largestValues: NT * 8 * 8 });
    expect(whole.slabs).toEqual({ count: 2, largestValues: NT * NY * NX });

    const tas = new Float32Array(NT * NY * NX);
    const pr = new Float32Array(NT * NY * NX);
    for (let t = 0; t < NT; t++) {
      for (let i = 0; i < NY; i++) {
        for (let j = 0; j < NX; j++) {
          const k = (t * NY + i) * NX + j;
          const [r, c] = [srcRow(i), srcCol(j)];
          tas[k] = isHole(t, r, c) ? NaN : value(t, r, c);
          pr[k] = isHole(t, c, r) ? NaN : packed(t, r, c) * 0.25 + 1000;
        }
      }
    }
    // toEqual holds NaN equal to NaN and compares the float32 values exactly.
    expect(await readArray(small.storePath, 'air_temperature')).toEqual(tas);
    expect(await readArray(small.storePath, 'precipitation_rate')).toEqual(pr);
    for (const name of ['air_temperature', 'precipitation_rate', 'lat', 'lon', 'time']) {
      expect(await chunkBytes(small.storePath, name)).toEqual(await chunkBytes(whole.storePath, name));
    }
    expect(small.entry.time).toEqual({
      start: '2021-06-01T00:00:00.000Z',
      end: new Date(Date.UTC(2021, 5, 1) + (NT - 1) * HOUR).toISOString(),
      stepMs: HOUR,
    });
  });

  it('GeoTIFF: a window of bands at a time, exact', async () => {
    const [w, h, nb] = [20, 12, 9];
    const bands = Array.from({ length: nb }, (_, b) => Array.from({ length: w * h }, (_, k) => b * 100 + k * 0.5));
    const file = path.join(tmp, 'big.tif');
    await writeGeotiffFile(file, { width: w, height: h, bands, west: 10, north: 50, dx: 0.25, dy: 0.25 });
    const res = await ingestFile(file, {
      outDir: path.join(tmp, 'tif-small'),
      slabBytes: 1,
      geotiff: { startMs: Date.UTC(2022, 0, 1), stepMs: 86_400_000, variable: 'index' },
    });
    // chunks [9, 8, 8]: 2 rows x 3 columns of chunks
    expect(res.slabs).toEqual({ count: 6, largestValues: nb * 8 * 8 });
    const expected = new Float32Array(nb * h * w);
    // store row i (south first) is raster row h - 1 - i
    for (let b = 0; b < nb; b++)
      for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) expected[(b * h + i) * w + j] = bands[b]![(h - 1 - i) * w + j]!;
    expect(await readArray(res.storePath, 'index')).toEqual(expected);
  });
});
