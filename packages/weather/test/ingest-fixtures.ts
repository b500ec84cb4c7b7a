/**
 * Writers of small source files for the ingest tests: NetCDF classic (CDF-1) by hand,
 * NetCDF-4 through h5wasm, GeoTIFF through geotiff.js.
 */
import { promises as fs } from 'node:fs';
import { globals, writeArrayBuffer } from 'geotiff';
import h5wasm from 'h5wasm/node';

export type NcType = 'byte' | 'char' | 'short' | 'int' | 'float' | 'double';
export type NcAttr = string | number | { type: NcType; values: number[] };

export interface NcVarSpec {
  name: string;
  dims: string[];
  type: Exclude<NcType, 'char'>;
  attrs?: Record<string, NcAttr>;
  data: number[];
}

export interface NcSpec {
  dims: Array<{ name: string; size: number; record?: boolean }>;
  attrs?: Record<string, NcAttr>;
  vars: NcVarSpec[];
}

const TYPE_CODE: Record<NcType, number> = { byte: 1, char: 2, short: 3, int: 4, float: 5, double: 6 };
const TYPE_SIZE: Record<NcType, number> = { byte: 1, char: 1, short: 2, int: 4, float: 4, double: 8 };

/** Big-endian byte builder with the classic format's 4-byte padding. */
class Bytes {
  private parts: Buffer[] = [];
  length = 0;
  push(b: Buffer): void {
    this.parts.push(b);
    this.length += b.length;
  }
  int(n: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    this.push(b);
  }
  pad(): void {
    const r = this.length % 4;
    if (r) this.push(Buffer.alloc(4 - r));
  }
  name(s: string): void {
    this.int(Buffer.byteLength(s));
    this.push(Buffer.from(s, 'latin1'));
    this.pad();
  }
  values(type: NcType, values: number[]): void {
    const b = Buffer.alloc(values.length * TYPE_SIZE[type]);
    values.forEach((v, k) => {
      const o = k * TYPE_SIZE[type];
      if (type === 'byte') b.writeInt8(v, o);
      else if (type === 'short') b.writeInt16BE(v, o);
      else if (type === 'int') b.writeInt32BE(v, o);
      else if (type === 'float') b.writeFloatBE(v, o);
      else if (type === 'double') b.writeDoubleBE(v, o);
    });
    this.push(b);
  }
  concat(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function attrList(out: Bytes, attrs: Record<string, NcAttr> | undefined): void {
  const entries = Object.entries(attrs ?? {});
  if (entries.length === 0) {
    out.int(0);
    out.int(0);
    return;
  }
  out.int(0x0c); // NC_ATTRIBUTE
  out.int(entries.length);
  for (const [name, value] of entries) {
    out.name(name);
    if (typeof value === 'string') {
      out.int(TYPE_CODE.char);
      out.int(Buffer.byteLength(value));
      out.push(Buffer.from(value, 'latin1'));
    } else {
      const { type, values } = typeof value === 'number' ? { type: 'double' as const, values: [value] } : value;
      out.int(TYPE_CODE[type]);
      out.int(values.length);
      out.values(type, values);
    }
    out.pad();
  }
}

/**
 * NetCDF classic format, version 1 (CDF-1), per the NetCDF file format specification:
 * header (magic, numrecs, dim_list, gatt_list, var_list with 32-bit begin offsets), then
 * non-record data, then the records interleaving every record variable.
 */
export async function writeCdf1(file: string, spec: NcSpec): Promise<void> {
  const dimIndex = new Map(spec.dims.map((d, k) => [d.name, k]));
  const recordDim = spec.dims.find((d) => d.record);
  const isRecord = (v: NcVarSpec) => recordDim !== undefined && v.dims[0] === recordDim.name;
  const sliceSize = (v: NcVarSpec) => {
    const n = v.dims.filter((d) => d !== recordDim?.name).reduce((a, d) => a * spec.dims[dimIndex.get(d)!]!.size, 1);
    const bytes = n * TYPE_SIZE[v.type];
    return bytes + ((4 - (bytes % 4)) % 4);
  };
  const header = (begins: number[]): Buffer => {
    const h = new Bytes();
    h.push(Buffer.from('CDF\x01', 'latin1'));
    h.int(recordDim?.size ?? 0);
    h.int(0x0a); // NC_DIMENSION
    h.int(spec.dims.length);
    for (const d of spec.dims) {
      h.name(d.name);
      h.int(d.record ? 0 : d.size);
    }
    attrList(h, spec.attrs);
    h.int(0x0b); // NC_VARIABLE
    h.int(spec.vars.length);
    spec.vars.forEach((v, k) => {
      h.name(v.name);
      h.int(v.dims.length);
      for (const d of v.dims) h.int(dimIndex.get(d)!);
      attrList(h, v.attrs);
      h.int(TYPE_CODE[v.type]);
      h.int(sliceSize(v));
      h.int(begins[k] ?? 0);
    });
    return h.concat();
  };
  const headerLength = header(spec.vars.map(() => 0)).length;
  const begins: number[] = [];
  let offset = headerLength;
  for (const v of spec.vars) {
    if (isRecord(v)) continue;
    begins[spec.vars.indexOf(v)] = offset;
    offset += sliceSize(v);
  }
  const recordVars = spec.vars.filter(isRecord);
  let inRecord = 0;
  for (const v of recordVars) {
    begins[spec.vars.indexOf(v)] = offset + inRecord;
    inRecord += sliceSize(v);
  }
  const body = new Bytes();
  for (const v of spec.vars) {
    if (isRecord(v)) continue;
    body.values(v.type, v.data);
    body.pad();
  }
  for (let r = 0; r < (recordDim?.size ?? 0); r++) {
    for (const v of recordVars) {
      const n = v.data.length / recordDim!.size;
      body.values(v.type, v.data.slice(r * n, (r + 1) * n));
      body.pad();
    }
  }
  await fs.writeFile(file, Buffer.concat([header(begins), body.concat()]));
}

const TYPED: Record<Exclude<NcType, 'char'>, (d: number[]) => ArrayBufferView> = {
  byte: (d) => Int8Array.from(d),
  short: (d) => Int16Array.from(d),
  int: (d) => Int32Array.from(d),
  float: (d) => Float32Array.from(d),
  double: (d) => Float64Array.from(d),
};

/**
 * NetCDF-4 through h5wasm: coordinate variables become HDF5 dimension scales named after
 * their dimension, and data variables get the scales attached per axis (NetCDF Users Guide,
 * "NetCDF-4 Format": dimensions as dimension scales).
 */
export async function writeNetcdf4(file: string, spec: NcSpec): Promise<void> {
  await h5wasm.ready;
  const f = new h5wasm.File(file, 'w');
  try {
    for (const [k, v] of Object.entries(spec.attrs ?? {})) setAttr(f, k, v);
    const sizes = new Map(spec.dims.map((d) => [d.name, d.size]));
    const coords = spec.vars.filter((v) => v.dims.length === 1 && v.dims[0] === v.name);
    for (const v of [...coords, ...spec.vars.filter((x) => !coords.includes(x))]) {
      const ds = f.create_dataset({ name: v.name, data: TYPED[v.type](v.data) as never, shape: v.dims.map((d) => sizes.get(d)!) });
      for (const [k, a] of Object.entries(v.attrs ?? {})) setAttr(ds, k, a);
      if (coords.includes(v)) ds.make_scale(v.name);
      else v.dims.forEach((d, k) => ds.attach_scale(k, `/${d}`));
    }
  } finally {
    f.close();
  }
}

function setAttr(target: { create_attribute(name: string, data: never): void }, name: string, value: NcAttr): void {
  if (typeof value === 'string') target.create_attribute(name, value as never);
  else if (typeof value === 'number') target.create_attribute(name, Float64Array.of(value) as never);
  else if (value.type !== 'char') target.create_attribute(name, TYPED[value.type](value.values) as never);
}

export interface TiffSpec {
  width: number;
  height: number;
  /** band-major: bands x height x width, row 0 at the top (north) */
  bands: number[][];
  /** longitude/latitude of the outer north-west corner */
  west: number;
  north: number;
  dx: number;
  dy: number;
  noData?: number;
  /** override geokeys, e.g. a projected system to be refused */
  geoKeys?: Record<string, number>;
  /** per band, the scale and offset GDAL stores in its GDAL_METADATA tag (gdal_translate -a_scale -a_offset) */
  scaleOffset?: { scale: number; offset: number }[];
  /** the TIFF DateTime tag (306), "YYYY:MM:DD HH:MM:SS" (TIFF 6.0 section 8) */
  dateTime?: string;
}

/** A float32 GeoTIFF with ModelTiepoint/ModelPixelScale (PixelIsArea) in WGS 84. */
export async function writeGeotiffFile(file: string, t: TiffSpec): Promise<void> {
  const nb = t.bands.length;
  const n = t.width * t.height;
  // geotiff.js writes flat input pixel-interleaved (PlanarConfiguration 1).
  const values = new Float32Array(n * nb);
  for (let b = 0; b < nb; b++) for (let k = 0; k < n; k++) values[k * nb + b] = t.bands[b]![k]!;
  const meta: Record<string, unknown> = {
    width: t.width,
    height: t.height,
    BitsPerSample: Array(nb).fill(32),
    SampleFormat: Array(nb).fill(3),
    SamplesPerPixel: nb,
    PlanarConfiguration: 1,
    PhotometricInterpretation: 1,
    ModelPixelScale: [t.dx, t.dy, 0],
    ModelTiepoint: [0, 0, 0, t.west, t.north, 0],
    GTModelTypeGeoKey: 2,
    GTRasterTypeGeoKey: 1,
    GeographicTypeGeoKey: 4326,
    ...(t.geoKeys ?? {}),
  };
  if (nb > 1) meta.ExtraSamples = Array(nb - 1).fill(0);
  if (t.dateTime !== undefined) meta.DateTime = t.dateTime;
  if (t.noData !== undefined) meta.GDAL_NODATA = `${t.noData}`;
  if (t.scaleOffset) {
    const items = t.scaleOffset.flatMap(({ scale, offset }, b) => [
      `<Item name="OFFSET" sample="${b}" role="offset">${offset}</Item>`,
      `<Item name="SCALE" sample="${b}" role="scale">${scale}</Item>`,
    ]);
    // geotiff.js reads GDAL_METADATA (tag 42112, ASCII, as GDAL writes it) but its writer has no type for it
    (globals.fieldTagTypes as Record<number, string>)[42112] = 'ASCII';
    meta.GDAL_METADATA = `<GDALMetadata>\n${items.join('\n')}\n</GDALMetadata>\n`;
  }
  const buf = writeArrayBuffer(values, meta as never);
  await fs.writeFile(file, Buffer.from(buf));
}

/**
 * A NetCDF-4 file with one float32 [time, lat, lon] variable written a time step at a time
 * (HDF5 chunks of one step, the common archive layout), so fixtures larger than memory-bound
 * tests' slabs, or benches' files, are never whole in memory while written.
 */
export async function writeNetcdf4ByStep(
  file: string,
  grid: { lats: number[]; lons: number[]; times: number[]; timeUnits: string },
  variable: { name: string; attrs: Record<string, string>; step: (t: number) => Float32Array },
): Promise<void> {
  await h5wasm.ready;
  const f = new h5wasm.File(file, 'w');
  try {
    const scale = (name: string, data: Float64Array | Float32Array, attrs: Record<string, string>) => {
      const ds = f.create_dataset({ name, data });
      for (const [k, v] of Object.entries(attrs)) ds.create_attribute(k, v);
      ds.make_scale(name);
    };
    const [nt, ny, nx] = [grid.times.length, grid.lats.length, grid.lons.length];
    scale('time', Float64Array.from(grid.times), { units: grid.timeUnits, standard_name: 'time' });
    scale('lat', Float32Array.from(grid.lats), { units: 'degrees_north', standard_name: 'latitude' });
    scale('lon', Float32Array.from(grid.lons), { units: 'degrees_east', standard_name: 'longitude' });
    const ds = f.create_dataset({
      name: variable.name,
      data: variable.step(0),
      shape: [1, ny, nx],
      maxshape: [null, ny, nx],
      chunks: [1, ny, nx],
    });
    ds.resize([nt, ny, nx]);
    for (let t = 1; t < nt; t++)
      ds.write_slice(
        [
          [t, t + 1],
          [0, ny],
          [0, nx],
        ],
        variable.step(t),
      );
    for (const [k, v] of Object.entries(variable.attrs)) ds.create_attribute(k, v);
    ['time', 'lat', 'lon'].forEach((d, k) => ds.attach_scale(k, `/${d}`));
  } finally {
    f.close();
  }
}
