/**
 * A GeoTIFF writer (TIFF 6.0, OGC GeoTIFF 1.1): float32, one band per variable (planar), tiled
 * 256 x 256, DEFLATE with the floating-point predictor (TIFF Technical Note 3), georeferenced in
 * EPSG:4326 with pixel-is-area, band descriptions and units in GDAL's metadata tag and the nodata
 * value in GDAL's nodata tag. The header and its directory come first and the tiles follow, so a
 * reader over HTTP ranges needs one request for the layout and one per tile: the
 * cloud-optimized layout of a single-resolution image (docs/decisions/0161-geotiff-and-netcdf-writers.md).
 */
import { deflateSync } from 'node:zlib';
import { isoInstant } from '@fieldcast/weather';
import { NODATA, type PositionalSink, type RasterLayout, type RasterRows } from './raster.js';

export const TILE = 256;

const TAG = {
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  SamplesPerPixel: 277,
  PlanarConfiguration: 284,
  Predictor: 317,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  ExtraSamples: 338,
  SampleFormat: 339,
  ModelPixelScale: 33550,
  ModelTiepoint: 33922,
  GeoKeyDirectory: 34735,
  GdalMetadata: 42112,
  GdalNodata: 42113,
} as const;

/** TIFF field types (TIFF 6.0 section 2). */
const TYPE = { ASCII: 2, SHORT: 3, LONG: 4, DOUBLE: 12 } as const;
const TYPE_SIZE: Record<number, number> = { [TYPE.ASCII]: 1, [TYPE.SHORT]: 2, [TYPE.LONG]: 4, [TYPE.DOUBLE]: 8 };

/** Adobe DEFLATE (TIFF Technical Note 2, compression 8). */
const COMPRESSION_DEFLATE = 8;
/** The floating-point predictor (TIFF Technical Note 3). */
const PREDICTOR_FLOATING_POINT = 3;
const SAMPLE_FORMAT_IEEE_FLOAT = 3;

/** GeoTIFF 1.1 keys (OGC 19-008r4, section 7) and their values. */
const GEOKEY = { GTModelType: 1024, GTRasterType: 1025, GeodeticCRS: 2048 } as const;
const MODEL_TYPE_GEOGRAPHIC = 2;
const RASTER_PIXEL_IS_AREA = 1;
const EPSG_WGS84 = 4326;

interface Entry {
  tag: number;
  type: number;
  values: number[] | string;
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * GDAL's metadata document (tag 42112): per band its description, units and CF names, and for
 * the dataset its time, title, source and history.
 */
export function gdalMetadata(layout: RasterLayout): string {
  const items: string[] = [];
  const item = (name: string, value: string, sample?: number, role?: string) =>
    items.push(
      `  <Item name="${xmlEscape(name)}"${sample === undefined ? '' : ` sample="${sample}"`}${role ? ` role="${role}"` : ''}>${xmlEscape(value)}</Item>`,
    );
  item('TITLE', layout.title);
  item('SOURCE', layout.source);
  item('HISTORY', layout.history);
  // The valid time as the dataset record writes it. Not TIFF's DateTime (306): TIFF 6.0 makes that
  // the image's creation time, and the bytes hold no clock time (docs/decisions/0161-geotiff-and-netcdf-writers.md).
  if (layout.times.length === 1) item('TIME', isoInstant(layout.times[0]!));
  layout.variables.forEach((v, b) => {
    item('DESCRIPTION', v.name, b, 'description');
    item('UNITTYPE', v.units, b, 'unittype');
    item('long_name', v.longName, b);
    if (v.standardName) item('standard_name', v.standardName, b);
    if (v.cellMethods) item('cell_methods', v.cellMethods, b);
  });
  return `<GDALMetadata>\n${items.join('\n')}\n</GDALMetadata>`;
}

/**
 * Reorders one row of float32 samples into byte planes, most significant first, then replaces each
 * byte by its difference from the previous one (TIFF Technical Note 3): smooth fields become runs
 * of small numbers that DEFLATE packs well.
 */
export function floatingPointPredict(row: Float32Array, out: Uint8Array): void {
  const n = row.length;
  const view = new DataView(row.buffer, row.byteOffset, row.byteLength);
  for (let i = 0; i < n; i++) {
    const bits = view.getUint32(i * 4, true);
    out[i] = bits >>> 24;
    out[n + i] = (bits >>> 16) & 0xff;
    out[2 * n + i] = (bits >>> 8) & 0xff;
    out[3 * n + i] = bits & 0xff;
  }
  for (let i = out.length - 1; i > 0; i--) out[i] = (out[i]! - out[i - 1]!) & 0xff;
}

/** Size in bytes of a directory of `count` entries with its count and next-directory offset. */
const ifdSize = (count: number) => 2 + 12 * count + 4;

/**
 * The header, the one image directory and the out-of-line values of the entries, with the tile
 * offsets and byte counts left as zeros: they are written once the tiles are. Returns the bytes
 * and where the two tables are.
 */
function header(layout: RasterLayout, tileCount: number): { bytes: Buffer; offsetsAt: number; countsAt: number } {
  const width = layout.lons.length;
  const height = layout.lats.length;
  const bands = layout.variables.length;
  const res = layout.resolution;
  const [west, , , north] = layout.bounds;
  const entries: Entry[] = [
    { tag: TAG.ImageWidth, type: TYPE.LONG, values: [width] },
    { tag: TAG.ImageLength, type: TYPE.LONG, values: [height] },
    { tag: TAG.BitsPerSample, type: TYPE.SHORT, values: Array(bands).fill(32) },
    { tag: TAG.Compression, type: TYPE.SHORT, values: [COMPRESSION_DEFLATE] },
    // BlackIsZero: the bands are data, not colours.
    { tag: TAG.Photometric, type: TYPE.SHORT, values: [1] },
    { tag: TAG.SamplesPerPixel, type: TYPE.SHORT, values: [bands] },
    // Planar: each band's tiles hold that band alone, so a reader of one band reads only its tiles.
    { tag: TAG.PlanarConfiguration, type: TYPE.SHORT, values: [bands > 1 ? 2 : 1] },
    { tag: TAG.Predictor, type: TYPE.SHORT, values: [PREDICTOR_FLOATING_POINT] },
    { tag: TAG.TileWidth, type: TYPE.SHORT, values: [TILE] },
    { tag: TAG.TileLength, type: TYPE.SHORT, values: [TILE] },
    { tag: TAG.TileOffsets, type: TYPE.LONG, values: Array(tileCount).fill(0) },
    { tag: TAG.TileByteCounts, type: TYPE.LONG, values: Array(tileCount).fill(0) },
    // TIFF 6.0 section 18: samples beyond the photometric interpretation's one are "unspecified".
    ...(bands > 1 ? [{ tag: TAG.ExtraSamples, type: TYPE.SHORT, values: Array(bands - 1).fill(0) }] : []),
    { tag: TAG.SampleFormat, type: TYPE.SHORT, values: Array(bands).fill(SAMPLE_FORMAT_IEEE_FLOAT) },
    { tag: TAG.ModelPixelScale, type: TYPE.DOUBLE, values: [res, res, 0] },
    // Raster point (0, 0), the north-west corner of the first pixel, is at (west, north).
    { tag: TAG.ModelTiepoint, type: TYPE.DOUBLE, values: [0, 0, 0, west, north, 0] },
    {
      tag: TAG.GeoKeyDirectory,
      type: TYPE.SHORT,
      // Version 1, revision 1.1 (GeoTIFF 1.1), three keys, each stored in the directory itself.
      values: [
        1,
        1,
        1,
        3,
        GEOKEY.GTModelType,
        0,
        1,
        MODEL_TYPE_GEOGRAPHIC,
        GEOKEY.GTRasterType,
        0,
        1,
        RASTER_PIXEL_IS_AREA,
        GEOKEY.GeodeticCRS,
        0,
        1,
        EPSG_WGS84,
      ],
    },
    { tag: TAG.GdalMetadata, type: TYPE.ASCII, values: gdalMetadata(layout) },
    { tag: TAG.GdalNodata, type: TYPE.ASCII, values: String(NODATA) },
  ];
  const encoded = entries.map((e) => ({ ...e, data: encodeValues(e) }));
  let extra = 8 + ifdSize(entries.length);
  const placed = encoded.map((e) => {
    if (e.data.length <= 4) return { ...e, at: -1 };
    const at = extra;
    extra += e.data.length + (e.data.length % 2); // values start on a word boundary (TIFF 6.0 section 2)
    return { ...e, at };
  });
  const bytes = Buffer.alloc(extra);
  bytes.write('II', 0, 'latin1');
  bytes.writeUInt16LE(42, 2);
  bytes.writeUInt32LE(8, 4);
  let p = 8;
  bytes.writeUInt16LE(entries.length, p);
  p += 2;
  let offsetsAt = 0;
  let countsAt = 0;
  for (const e of placed) {
    bytes.writeUInt16LE(e.tag, p);
    bytes.writeUInt16LE(e.type, p + 2);
    bytes.writeUInt32LE(typeof e.values === 'string' ? e.data.length : e.values.length, p + 4);
    if (e.at < 0) e.data.copy(bytes, p + 8);
    else {
      bytes.writeUInt32LE(e.at, p + 8);
      e.data.copy(bytes, e.at);
    }
    const where = e.at < 0 ? p + 8 : e.at;
    if (e.tag === TAG.TileOffsets) offsetsAt = where;
    if (e.tag === TAG.TileByteCounts) countsAt = where;
    p += 12;
  }
  bytes.writeUInt32LE(0, p); // no next directory
  return { bytes, offsetsAt, countsAt };
}

function encodeValues(e: Entry): Buffer {
  if (typeof e.values === 'string') return Buffer.from(`${e.values}\0`, 'latin1');
  const size = TYPE_SIZE[e.type]!;
  const out = Buffer.alloc(size * e.values.length);
  e.values.forEach((v, i) => {
    if (e.type === TYPE.SHORT) out.writeUInt16LE(v, i * 2);
    else if (e.type === TYPE.LONG) out.writeUInt32LE(v, i * 4);
    else out.writeDoubleLE(v, i * 8);
  });
  return out;
}

/** The most bytes a classic TIFF addresses (32-bit offsets). */
const MAX_TIFF_BYTES = 2 ** 32 - 1;

/**
 * Writes the GeoTIFF of a static field or a single time step. Rows are read one tile row at a
 * time (256 rows of every band), so memory holds one band of tiles, never the image.
 * Returns the file's size.
 */
export async function writeGeoTiff(layout: RasterLayout, rows: RasterRows, sink: PositionalSink): Promise<number> {
  if (layout.times.length > 1) throw new Error('a GeoTIFF holds one time step');
  const width = layout.lons.length;
  const height = layout.lats.length;
  const bands = layout.variables.length;
  const across = Math.ceil(width / TILE);
  const down = Math.ceil(height / TILE);
  const tilesPerBand = across * down;
  const { bytes, offsetsAt, countsAt } = header(layout, tilesPerBand * bands);
  await sink.write(bytes, 0);
  const offsets = Buffer.alloc(4 * tilesPerBand * bands);
  const counts = Buffer.alloc(4 * tilesPerBand * bands);
  let position = bytes.length;

  // One tile row of each band, padded with nodata to whole tiles (TIFF 6.0 section 15).
  const strip = layout.variables.map(() => new Float32Array(TILE * across * TILE));
  const tile = new Float32Array(TILE * TILE);
  const predicted = new Uint8Array(TILE * 4);
  const tileBytes = new Uint8Array(TILE * TILE * 4);
  let row = 0;
  const flush = async (tileRow: number) => {
    for (let b = 0; b < bands; b++) {
      for (let tx = 0; tx < across; tx++) {
        for (let y = 0; y < TILE; y++) {
          tile.set(strip[b]!.subarray(y * TILE * across + tx * TILE, y * TILE * across + (tx + 1) * TILE), y * TILE);
          floatingPointPredict(tile.subarray(y * TILE, (y + 1) * TILE), predicted);
          tileBytes.set(predicted, y * TILE * 4);
        }
        const compressed = deflateSync(tileBytes);
        const index = b * tilesPerBand + tileRow * across + tx;
        if (position + compressed.length > MAX_TIFF_BYTES) throw new Error('the GeoTIFF would pass 4 GiB');
        offsets.writeUInt32LE(position, 4 * index);
        counts.writeUInt32LE(compressed.length, 4 * index);
        await sink.write(compressed, position);
        position += compressed.length;
      }
      strip[b]!.fill(NODATA);
    }
  };
  for (const s of strip) s.fill(NODATA);
  for await (const { values } of rows) {
    const y = row % TILE;
    for (let b = 0; b < bands; b++) {
      const target = strip[b]!;
      const source = values[b]!;
      for (let x = 0; x < width; x++) {
        const v = source[x]!;
        target[y * TILE * across + x] = Number.isNaN(v) ? NODATA : v;
      }
    }
    row++;
    if (row % TILE === 0) await flush(row / TILE - 1);
  }
  if (row !== height) throw new Error(`the GeoTIFF got ${row} rows of ${height}`);
  if (row % TILE !== 0) await flush(down - 1);
  await sink.write(offsets, offsetsAt);
  await sink.write(counts, countsAt);
  return position;
}
