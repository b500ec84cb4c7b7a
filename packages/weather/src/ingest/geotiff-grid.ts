/**
 * GeoTIFF rasters through geotiff.js. Georeferencing from ModelTiepointTag and
 * ModelPixelScaleTag (GeoTIFF 1.1, OGC 19-008r4, sections 7.2 and 7.3), or a
 * ModelTransformationTag without rotation; the coordinate system must be geographic WGS 84
 * (GeographicTypeGeoKey 4326, or a user-defined geographic system on datum 6326), anything
 * else is refused: Fieldcast grids are regular in latitude and longitude.
 *
 * Values are GDAL's: raw x the band's scale + offset (GDAL_METADATA), GDAL_NODATA as NaN.
 *
 * Bands are time steps. A TIFF has no time axis, so the caller names the first time and the
 * step; without them the TIFF DateTime tag (TIFF 6.0, tag 306) gives the first time.
 *
 * The file is opened, not loaded: blocks (a window of pixels for a range of bands) are read
 * and decoded on demand, strip by strip or tile by tile, so ingest holds a slab at a time.
 */
import { calendarFault, calendarMs } from '@fieldcast/calendar';
import { fromFile, type GeoTIFF, type GeoTIFFImage } from 'geotiff';
import type { DecodedGrid } from './cf-dataset.js';
import { IngestError } from './errors.js';

export interface GeotiffTimeOptions {
  /** time of band 1, epoch ms */
  startMs?: number;
  /** time between bands, ms (0 for a single static field) */
  stepMs?: number;
  /** name of the variable (default: the file name) */
  variable?: string;
  /** CF attributes of the variable: standard_name, units, cell_methods, long_name */
  attributes?: Record<string, unknown>;
}

const GEOGRAPHIC = 2;
const PROJECTED = 1;
const WGS84 = 4326;
const WGS84_DATUM = 6326;
const USER_DEFINED = 32767;
const PIXEL_IS_POINT = 2;

/** TIFF 6.0 DateTime: "YYYY:MM:DD HH:MM:SS". */
function tiffDateTime(text: unknown): number | undefined {
  const m = typeof text === 'string' ? /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(text) : null;
  if (!m) return undefined;
  const fields = [+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!] as const;
  const ms = calendarMs(...fields);
  // a tag that is no calendar time (30 February, hour 24) is refused rather than rolled onto another
  if (ms === null) throw new IngestError(`the DateTime tag "${m[0]}" is not a calendar date and time (its ${calendarFault(...fields)})`);
  return ms;
}

export async function readGeotiff(file: string, name: string, options: GeotiffTimeOptions = {}): Promise<DecodedGrid> {
  const tiff = await fromFile(file);
  try {
    return await readOpen(tiff, file, name, options);
  } catch (err) {
    await tiff.close();
    throw err;
  }
}

async function readOpen(tiff: GeoTIFF, file: string, name: string, options: GeotiffTimeOptions): Promise<DecodedGrid> {
  const image = await tiff.getImage(0);
  const width = image.getWidth();
  const height = image.getHeight();
  const bands = image.getSamplesPerPixel();
  const dir = image.getFileDirectory();
  const keys = image.getGeoKeys() ?? {};

  const model = keys.GTModelTypeGeoKey as number | undefined;
  if (model === PROJECTED || keys.ProjectedCSTypeGeoKey !== undefined) {
    throw new IngestError(
      `${file}: projected coordinate system (EPSG ${keys.ProjectedCSTypeGeoKey ?? 'user-defined'}); only geographic WGS 84 (EPSG:4326) GeoTIFFs are supported, reproject with "gdalwarp -t_srs EPSG:4326"`,
    );
  }
  if (model !== undefined && model !== GEOGRAPHIC) {
    throw new IngestError(`${file}: GTModelTypeGeoKey ${model} is not geographic; only WGS 84 (EPSG:4326) is supported`);
  }
  const gcs = keys.GeographicTypeGeoKey as number | undefined;
  const datum = keys.GeogGeodeticDatumGeoKey as number | undefined;
  const wgs84 = gcs === WGS84 || ((gcs === undefined || gcs === USER_DEFINED) && datum === WGS84_DATUM);
  if (!wgs84) {
    throw new IngestError(
      `${file}: geographic system ${gcs ?? 'unspecified'}${datum ? ` on datum ${datum}` : ''} is not WGS 84 (EPSG:4326)`,
    );
  }

  const tie = dir.getValue('ModelTiepoint') as number[] | undefined;
  const scale = dir.getValue('ModelPixelScale') as number[] | undefined;
  const transform = dir.getValue('ModelTransformation') as number[] | undefined;
  let x0: number; // longitude of the raster-space origin (0, 0)
  let y0: number;
  let dx: number;
  let dy: number; // positive when rows go south
  if (tie && scale && tie.length >= 6 && scale.length >= 2) {
    if (tie.length > 6) throw new IngestError(`${file}: several tiepoints (a warped raster) are not supported`);
    const [i, j, , x, y] = tie as [number, number, number, number, number];
    dx = scale[0]!;
    dy = scale[1]!;
    x0 = x - i * dx;
    y0 = y + j * dy;
  } else if (transform && transform.length >= 8) {
    // GeoTIFF 7.3: [a b 0 d; e f 0 h; ...]; rotation terms b and e must be zero.
    if (transform[1] !== 0 || transform[4] !== 0) throw new IngestError(`${file}: rotated rasters are not supported`);
    dx = transform[0]!;
    x0 = transform[3]!;
    dy = -transform[5]!;
    y0 = transform[7]!;
  } else {
    throw new IngestError(`${file}: no georeferencing (ModelTiepointTag with ModelPixelScaleTag, or ModelTransformationTag)`);
  }
  if (!(dx > 0) || dy === 0) throw new IngestError(`${file}: degenerate pixel scale (${dx}, ${dy})`);
  // PixelIsArea (the default, GeoTIFF 7.1.4): raster space (0, 0) is the outer corner of the
  // first pixel, so its centre is half a pixel in; PixelIsPoint: (0, 0) is the centre.
  const half = keys.GTRasterTypeGeoKey === PIXEL_IS_POINT ? 0 : 0.5;
  const lons = Array.from({ length: width }, (_, c) => x0 + (c + half) * dx);
  const lats = Array.from({ length: height }, (_, r) => y0 - (r + half) * dy);

  const noData = image.getGDALNoData();
  const unscaled = await bandScales(image, bands, file);
  let open = true;
  const read = async (t0: number, nt: number, r0: number, nr: number, c0: number, nc: number): Promise<Float32Array> => {
    if (!open) throw new Error(`${file} is closed`);
    const samples = Array.from({ length: nt }, (_, b) => t0 + b);
    const rasters = await image.readRasters({ window: [c0, r0, c0 + nc, r0 + nr], samples, interleave: false });
    const n = nr * nc;
    const data = new Float32Array(nt * n);
    for (let b = 0; b < nt; b++) {
      const band = rasters[b] as ArrayLike<number>;
      const { scale, offset } = unscaled[t0 + b]!;
      for (let k = 0; k < n; k++) {
        const v = band[k]!;
        data[b * n + k] = noData !== null && (v === noData || v === Math.fround(noData)) ? NaN : v * scale + offset;
      }
    }
    return data;
  };

  const startMs = options.startMs ?? tiffDateTime(await dir.loadValue('DateTime'));
  const stepMs = options.stepMs ?? 0;
  const static1 = bands === 1 && options.startMs === undefined && startMs === undefined;
  if (!static1 && startMs === undefined) {
    throw new IngestError(`${file}: ${bands} bands are time steps, but the file has no DateTime tag; pass the time of band 1 and the step`);
  }
  if (bands > 1 && !(stepMs > 0)) {
    throw new IngestError(`${file}: ${bands} bands are time steps; pass the step between them`);
  }
  return {
    format: 'geotiff',
    attrs: {},
    lats,
    lons,
    times: static1 ? null : Array.from({ length: bands }, (_, b) => startMs! + b * stepMs),
    variables: [{ name: options.variable ?? name, attrs: { ...(options.attributes ?? {}) }, hasTime: !static1, read }],
    skipped: [],
    close: async () => {
      if (open) await tiff.close();
      open = false;
    },
  };
}

/**
 * Each band's scale and offset, as GDAL keeps them in its GDAL_METADATA tag (items SCALE and
 * OFFSET of the band's sample): a value is raw x scale + offset (GDAL raster data model, "scale
 * and offset"; `gdal_translate -unscale` applies the same), no-data being a raw value. 1 and 0
 * where the file says nothing.
 */
async function bandScales(image: GeoTIFFImage, bands: number, file: string): Promise<{ scale: number; offset: number }[]> {
  return Promise.all(
    Array.from({ length: bands }, async (_, b) => {
      const items = ((await image.getGDALMetadata(b)) ?? {}) as Record<string, unknown>;
      const scale = items.SCALE === undefined ? 1 : Number(items.SCALE);
      const offset = items.OFFSET === undefined ? 0 : Number(items.OFFSET);
      if (!Number.isFinite(scale) || !Number.isFinite(offset))
        throw new IngestError(
          `${file}: band ${b + 1} has scale ${String(items.SCALE)} and offset ${String(items.OFFSET)}; both must be numbers`,
        );
      return { scale, offset };
    }),
  );
}
