/**
 * A NetCDF-4 writer (NetCDF Users Guide, "NetCDF-4 Format": HDF5 with conventions) through h5wasm,
 * HDF5's own library compiled to WebAssembly, whose Node build writes the file on disk as it goes
 * (Emscripten's NODERAWFS). CF-1.8 metadata: coordinate variables `time`, `lat` and `lon` made
 * HDF5 dimension scales (HDF5 Dimension Scale Specification) named after their dimension, so
 * netCDF-C sees them as dimensions, with units, standard_name and axis, and the cells of `lat`
 * and `lon` as `lat_bnds` and `lon_bnds` (CF 1.11 §7.1, for cell areas: a row centred on a pole
 * ends at it, docs/decisions/0467-cells-centred-on-a-pole.md); a scalar `height` coordinate for
 * the variables at a height above the ground (CF 1.11 §6.1.1); each data variable
 * attached to them, with standard_name (when CF has one), long_name, units, cell_methods, the
 * WGS 84 grid mapping and a float32 `_FillValue`; the time cells of statistics over time as
 * `time_bnds` (CF 1.11 §7.1), written once every row is read, since the reads state them; the
 * global Conventions, title, institution, source and history. Data variables are chunked a band
 * of rows of one time step at a time and DEFLATE-compressed; bands are written as their rows are
 * read, so memory holds one band, never the file (docs/decisions/0166-netcdf4-through-h5wasm.md).
 */
import { stat } from 'node:fs/promises';
import type { Dataset, Group } from 'h5wasm/node';
import { isTimeStatistic, loadH5wasm } from '@fieldcast/weather';
import { NODATA, type RasterLayout, type RasterRows, type RowTimeCell, sameTimeCell } from './raster.js';

/** CF 1.8 section 4.4: time as a count of hours since an epoch, in the standard calendar. */
export const TIME_UNITS = 'hours since 1970-01-01 00:00:00';

/** Cells of one chunk (and of one band written at once): 256 KiB of float32, 45 rows of a global 0.25 degree grid. */
export const CHUNK_CELLS = 65_536;

/** DEFLATE level: HDF5's and netCDF's usual 4, most of level 9's gain for a fraction of its time. */
const DEFLATE_LEVEL = 4;

/** h5wasm's dtypes: little-endian float32 and float64. */
const FLOAT = '<f';
const DOUBLE = '<d';

/**
 * HDF5 format versions from the earliest to 1.8's: every HDF5 library since 1.8, and so every
 * netCDF-C since 4.0, reads the file (netCDF-C writes with the same bound).
 */
const LIBVER: ['earliest', 'v108'] = ['earliest', 'v108'];

type Target = Pick<Group | Dataset, 'create_attribute'>;

/**
 * Runs HDF5 calls with the clock at the epoch. HDF5 stamps each object header with the time it
 * was changed (the modification time message), read from the host's clock through Emscripten's
 * Date.now; h5wasm cannot turn that off (H5Pset_obj_track_times). A fixed clock keeps the bytes a
 * function of the dataset alone, so every replica makes the same file, checksum and ETag. The
 * calls are synchronous: nothing else runs while the clock is held.
 */
function atEpoch<T>(calls: () => T): T {
  const now = Date.now;
  Date.now = () => 0;
  try {
    return calls();
  } finally {
    Date.now = now;
  }
}

/** A text attribute as NC_CHAR: a fixed-length string of its UTF-8 bytes (a variable-length one reads as NC_STRING). */
function text(target: Target, name: string, value: string): void {
  target.create_attribute(name, value, null, `S${Math.max(1, Buffer.byteLength(value, 'utf8'))}`);
}

/** A coordinate variable: float64 values, its attributes, and a dimension scale of its own name. */
function coordinate(file: Group, name: string, values: Float64Array, attributes: Record<string, string>): void {
  const ds = file.create_dataset({ name, data: values, dtype: DOUBLE, track_order: true });
  for (const [k, v] of Object.entries(attributes)) text(ds, k, v);
  ds.make_scale(name);
}

/**
 * The grid mapping of every data variable (CF 1.8 section 5.6, Appendix F latitude_longitude):
 * the grid is WGS 84 longitude and latitude (EPSG:4326), as the GeoTIFFs say. Without it CF
 * leaves the datum open, and GDAL georeferences the variables with no coordinate system.
 */
const CRS_VARIABLE = 'crs';
const WGS84 = {
  grid_mapping_name: 'latitude_longitude',
  longitude_of_prime_meridian: 0,
  semi_major_axis: 6_378_137,
  inverse_flattening: 298.257223563,
};
const WGS84_WKT =
  'GEOGCRS["WGS 84",DATUM["World Geodetic System 1984",ELLIPSOID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],CS[ellipsoidal,2],AXIS["latitude",north,ANGLEUNIT["degree",0.0174532925199433]],AXIS["longitude",east,ANGLEUNIT["degree",0.0174532925199433]],ID["EPSG",4326]]';

function gridMapping(file: Group): void {
  const crs = file.create_dataset({ name: CRS_VARIABLE, data: Int32Array.of(0), shape: [], dtype: '<i', track_order: true });
  for (const [name, value] of Object.entries(WGS84))
    if (typeof value === 'string') text(crs, name, value);
    else crs.create_attribute(name, Float64Array.of(value), null, DOUBLE);
  text(crs, 'crs_wkt', WGS84_WKT);
}

const DAY_MS = 86_400_000;

/**
 * The cell of each valid time, [start, end] in epoch ms, or null when the file states none
 * (docs/decisions/0370-daily-netcdf-time-bounds.md). CF 1.11 §7.1 gives a statistic over an
 * interval the interval as the bounds of its time coordinate, and §7.3 names the statistic in
 * cell_methods; an instant needs none. A time coordinate has one bounds variable, so the cells are
 * stated only where every statistic of the file stands for the same one: the cell its reads state
 * (`timeCells`, one per variable, raster.ts RowTimeCell; an interval, the same at every stamp:
 * docs/decisions/0379-time-cells-of-mean-rates.md), or, where they state none, the date of a daily
 * series stamped 00:00Z of it (the GridSource contract), [00:00Z, 00:00Z the next day].
 */
export function fileTimeCells(
  layout: Pick<RasterLayout, 'times' | 'stepMs' | 'variables'>,
  timeCells: readonly RowTimeCell[],
): [number, number][] | null {
  const statistics = layout.variables.flatMap((v, i) => (isTimeStatistic(v.cellMethods) ? [timeCells[i]] : []));
  const first = statistics[0];
  if (layout.times.length === 0 || statistics.length === 0) return null;
  if (typeof first === 'object' && first[1] > first[0] && statistics.every((c) => sameTimeCell(c, first)))
    return layout.times.map((t) => [t + first[0], t + first[1]]);
  const daily = layout.stepMs === DAY_MS && layout.times.every((t) => t % DAY_MS === 0);
  if (daily && statistics.every((c) => c === undefined)) return layout.times.map((t) => [t, t + DAY_MS]);
  return null;
}

/**
 * A netCDF dimension without a coordinate variable, as netCDF-C writes one in a NetCDF-4 file
 * (NetCDF Users Guide, "NetCDF-4 Format"): a dimension scale whose NAME is netCDF-C's marker
 * followed by the length in ten characters, over a float32 dataset of that length.
 */
function bareDimension(file: Group, name: string, length: number): void {
  const ds = file.create_dataset({ name, data: new Float32Array(length), dtype: FLOAT, track_order: true });
  ds.make_scale(`This is a netCDF dimension but not a netCDF variable.${String(length).padStart(10)}`);
}

/**
 * The time bounds variable (CF 1.11 §7.1): `time_bnds` (time, nv), in the units and calendar of
 * `time` as the section asks, named by the `bounds` attribute of `time`.
 */
function timeBounds(file: Group, cells: [number, number][]): void {
  text(file.get('time') as Dataset, 'bounds', 'time_bnds');
  const hours = Float64Array.from(cells.flat(), (t) => t / 3_600_000);
  const ds = file.create_dataset({ name: 'time_bnds', data: hours, shape: [cells.length, 2], dtype: DOUBLE, track_order: true });
  ds.attach_scale(0, '/time');
  ds.attach_scale(1, '/nv');
}

/**
 * A coordinate's cell bounds (CF 1.11 §7.1): `<name>_bnds` (name, nv) from the edges between its
 * cells, each cell's two in the coordinate's order, so neighbours share an edge bit for bit; in its
 * units, with no attributes of its own, named by the `bounds` attribute of the coordinate.
 */
function cellBounds(file: Group, name: string, edges: Float64Array): void {
  const n = edges.length - 1;
  const values = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) values.set([edges[i]!, edges[i + 1]!], 2 * i);
  const ds = file.create_dataset({ name: `${name}_bnds`, data: values, shape: [n, 2], dtype: DOUBLE, track_order: true });
  ds.attach_scale(0, `/${name}`);
  ds.attach_scale(1, '/nv');
}

/**
 * The scalar coordinate of each height above the ground the variables are at (CF 1.11 §6.1.1:
 * air_temperature at 2 m carries one), `height` where there is one height, `height_<n>m` for each
 * of several; returns the variable of each height.
 */
function heights(file: Group, variables: RasterLayout['variables']): Map<number, string> {
  const distinct = [...new Set(variables.flatMap((v) => (v.heightM === undefined ? [] : [v.heightM])))];
  const names = new Map(distinct.map((h) => [h, distinct.length === 1 ? 'height' : `height_${h}m`]));
  for (const [h, name] of names) {
    const ds = file.create_dataset({ name, data: Float64Array.of(h), shape: [], dtype: DOUBLE, track_order: true });
    for (const [k, v] of Object.entries({
      standard_name: 'height',
      long_name: 'height above the ground',
      units: 'm',
      positive: 'up',
      axis: 'Z',
    }))
      text(ds, k, v);
  }
  return names;
}

/** The global attributes, the coordinate variables and the data variables (empty, at their full shape); returns the data variables. */
function define(file: Group, layout: RasterLayout, bandRows: number): Dataset[] {
  const nLat = layout.lats.length;
  const nLon = layout.lons.length;
  const timed = layout.times.length > 0;
  const nt = Math.max(1, layout.times.length);
  text(file, 'Conventions', 'CF-1.8');
  text(file, 'title', layout.title);
  text(file, 'institution', 'Fieldcast');
  text(file, 'source', layout.source);
  text(file, 'history', layout.history);
  if (timed) {
    const hours = Float64Array.from(layout.times, (t) => t / 3_600_000);
    coordinate(file, 'time', hours, {
      standard_name: 'time',
      long_name: 'time',
      units: TIME_UNITS,
      calendar: 'standard',
      axis: 'T',
    });
  }
  coordinate(file, 'lat', layout.lats, {
    standard_name: 'latitude',
    long_name: 'latitude',
    units: 'degrees_north',
    axis: 'Y',
    bounds: 'lat_bnds',
  });
  coordinate(file, 'lon', layout.lons, {
    standard_name: 'longitude',
    long_name: 'longitude',
    units: 'degrees_east',
    axis: 'X',
    bounds: 'lon_bnds',
  });
  bareDimension(file, 'nv', 2);
  cellBounds(file, 'lat', layout.latEdges);
  cellBounds(file, 'lon', layout.lonEdges);
  const heightOf = heights(file, layout.variables);
  gridMapping(file);

  const dims = timed ? ['time', 'lat', 'lon'] : ['lat', 'lon'];
  const shape = timed ? [nt, nLat, nLon] : [nLat, nLon];
  return layout.variables.map((v) => {
    // Created empty in rows and grown to its shape, so no whole-grid array is ever passed in.
    const ds = file.create_dataset({
      name: v.name,
      data: new Float32Array(0),
      shape: timed ? [nt, 0, nLon] : [0, nLon],
      maxshape: shape,
      chunks: timed ? [1, bandRows, nLon] : [bandRows, nLon],
      compression: 'gzip',
      compression_opts: DEFLATE_LEVEL,
      dtype: FLOAT,
      track_order: true,
    });
    ds.resize(shape);
    dims.forEach((d, k) => ds.attach_scale(k, `/${d}`));
    if (v.standardName) text(ds, 'standard_name', v.standardName);
    text(ds, 'long_name', v.longName);
    text(ds, 'units', v.units);
    if (v.cellMethods) text(ds, 'cell_methods', v.cellMethods);
    if (v.heightM !== undefined) text(ds, 'coordinates', heightOf.get(v.heightM)!);
    text(ds, 'grid_mapping', CRS_VARIABLE);
    // CF 1.8 section 2.5.1: _FillValue of the variable's own type.
    ds.create_attribute('_FillValue', Float32Array.of(NODATA), null, FLOAT);
    return ds;
  });
}

/**
 * Writes the NetCDF-4 file at `path` (created or emptied). Rows arrive north to south with every
 * time step; they are gathered in bands of whole chunks, and each band is one hyperslab write per
 * variable. Returns the file's size.
 */
export async function writeNetcdf(layout: RasterLayout, rows: RasterRows, path: string): Promise<number> {
  const h5wasm = await loadH5wasm();
  const nLat = layout.lats.length;
  const nLon = layout.lons.length;
  const timed = layout.times.length > 0;
  const nt = Math.max(1, layout.times.length);
  const bandRows = Math.max(1, Math.min(nLat, Math.floor(CHUNK_CELLS / nLon)));
  const file = atEpoch(() => new h5wasm.File(path, 'w', { libver: LIBVER, track_order: true }));
  try {
    const variables = atEpoch(() => define(file, layout, bandRows));

    // One band of each variable, [time][row][lon], as the hyperslab write takes it.
    const band = layout.variables.map(() => new Float32Array(nt * bandRows * nLon));
    let row = 0;
    let first = 0;
    // Each variable's time cell over the rows read so far.
    const cells: RowTimeCell[] = [];
    const flush = () => {
      const count = row - first;
      atEpoch(() =>
        variables.forEach((ds, v) => {
          const values = count === bandRows ? band[v]! : compact(band[v]!, nt, bandRows, count, nLon);
          const rowsSlice: [number, number] = [first, row];
          ds.write_slice(timed ? [[0, nt], rowsSlice, [0, nLon]] : [rowsSlice, [0, nLon]], values);
        }),
      );
      first = row;
    };
    for await (const { values, timeCells } of rows) {
      timeCells.forEach((cell, v) => (cells[v] = row === 0 || sameTimeCell(cells[v], cell) ? cell : 'mixed'));
      const y = row - first;
      for (let v = 0; v < layout.variables.length; v++) {
        const source = values[v]!;
        const target = band[v]!;
        for (let t = 0; t < nt; t++) {
          const at = (t * bandRows + y) * nLon;
          for (let x = 0; x < nLon; x++) {
            const value = source[t * nLon + x]!;
            target[at + x] = Number.isNaN(value) ? NODATA : value;
          }
        }
      }
      row++;
      if (row - first === bandRows) flush();
    }
    if (row !== nLat) throw new Error(`the NetCDF file got ${row} rows of ${nLat}`);
    if (row > first) flush();
    const bounds = timed ? fileTimeCells(layout, cells) : null;
    if (bounds) atEpoch(() => timeBounds(file, bounds));
  } finally {
    atEpoch(() => file.close());
  }
  return (await stat(path)).size;
}

/** The first `count` rows of each time step of a band of `bandRows`, packed as a hyperslab of `count` rows. */
function compact(band: Float32Array, nt: number, bandRows: number, count: number, nLon: number): Float32Array {
  const out = new Float32Array(nt * count * nLon);
  for (let t = 0; t < nt; t++) out.set(band.subarray(t * bandRows * nLon, (t * bandRows + count) * nLon), t * count * nLon);
  return out;
}
