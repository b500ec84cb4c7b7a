/**
 * A NetCDF writer: the 64-bit offset format (CDF-2, NetCDF Classic Format Specification) with
 * CF-1.8 metadata: coordinate variables `time`, `lat` and `lon` with units, standard_name and
 * axis, each data variable with standard_name (when CF has one), long_name, units, cell_methods
 * and _FillValue, and the global Conventions, title, source and history. Every variable has fixed
 * dimensions, so each (time, row) block has a known place in the file and rows are written as
 * they are read (docs/decisions/0161-geotiff-and-netcdf-writers.md).
 */
import { NODATA, type PositionalSink, type RasterLayout, type RasterRows } from './raster.js';

/** Tags of the header's lists (NetCDF Classic Format Specification). */
const NC_DIMENSION = 0x0a;
const NC_VARIABLE = 0x0b;
const NC_ATTRIBUTE = 0x0c;
/** External types. */
const NC_CHAR = 2;
const NC_FLOAT = 5;
const NC_DOUBLE = 6;

type Attribute =
  { name: string; type: typeof NC_CHAR; value: string } | { name: string; type: typeof NC_FLOAT | typeof NC_DOUBLE; value: number[] };

interface Variable {
  name: string;
  dims: number[];
  type: typeof NC_FLOAT | typeof NC_DOUBLE;
  attributes: Attribute[];
  /** bytes of its data */
  size: number;
}

/** Big-endian bytes, as the format stores everything. */
class HeaderBytes {
  private readonly parts: Buffer[] = [];
  private length = 0;

  private push(b: Buffer): void {
    this.parts.push(b);
    this.length += b.length;
  }
  int(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.push(b);
  }
  int64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(BigInt(v));
    this.push(b);
  }
  /** name = nelems chars, padded with zeros to 4 bytes */
  name(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.int(bytes.length);
    this.padded(bytes);
  }
  padded(bytes: Buffer): void {
    this.push(bytes);
    const pad = (4 - (bytes.length % 4)) % 4;
    if (pad) this.push(Buffer.alloc(pad));
  }
  get size(): number {
    return this.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function attributeList(out: HeaderBytes, attributes: Attribute[]): void {
  if (attributes.length === 0) {
    out.int(0); // ABSENT
    out.int(0);
    return;
  }
  out.int(NC_ATTRIBUTE);
  out.int(attributes.length);
  for (const a of attributes) {
    out.name(a.name);
    out.int(a.type);
    if (a.type === NC_CHAR) {
      const bytes = Buffer.from(a.value, 'utf8');
      out.int(bytes.length);
      out.padded(bytes);
    } else {
      const size = a.type === NC_FLOAT ? 4 : 8;
      const bytes = Buffer.alloc(size * a.value.length);
      a.value.forEach((v, i) => (a.type === NC_FLOAT ? bytes.writeFloatBE(v, i * 4) : bytes.writeDoubleBE(v, i * 8)));
      out.int(a.value.length);
      out.padded(bytes);
    }
  }
}

const text = (name: string, value: string): Attribute => ({ name, type: NC_CHAR, value });

/** CF 1.8 section 4.4: time as a count of hours since an epoch, in the standard calendar. */
export const TIME_UNITS = 'hours since 1970-01-01 00:00:00';

function variablesOf(layout: RasterLayout): { dims: { name: string; length: number }[]; variables: Variable[] } {
  const nLat = layout.lats.length;
  const nLon = layout.lons.length;
  const timed = layout.times.length > 0;
  const dims = [
    ...(timed ? [{ name: 'time', length: layout.times.length }] : []),
    { name: 'lat', length: nLat },
    { name: 'lon', length: nLon },
  ];
  const [time, lat, lon] = timed ? [0, 1, 2] : [-1, 0, 1];
  const grid = timed ? [time, lat, lon] : [lat, lon];
  const cells = (timed ? layout.times.length : 1) * nLat * nLon;
  const variables: Variable[] = [
    ...(timed
      ? [
          {
            name: 'time',
            dims: [time],
            type: NC_DOUBLE,
            attributes: [
              text('standard_name', 'time'),
              text('long_name', 'time'),
              text('units', TIME_UNITS),
              text('calendar', 'standard'),
              text('axis', 'T'),
            ],
            size: 8 * layout.times.length,
          } satisfies Variable,
        ]
      : []),
    {
      name: 'lat',
      dims: [lat],
      type: NC_DOUBLE,
      attributes: [text('standard_name', 'latitude'), text('long_name', 'latitude'), text('units', 'degrees_north'), text('axis', 'Y')],
      size: 8 * nLat,
    },
    {
      name: 'lon',
      dims: [lon],
      type: NC_DOUBLE,
      attributes: [text('standard_name', 'longitude'), text('long_name', 'longitude'), text('units', 'degrees_east'), text('axis', 'X')],
      size: 8 * nLon,
    },
    ...layout.variables.map((v): Variable => ({
      name: v.name,
      dims: grid,
      type: NC_FLOAT,
      attributes: [
        ...(v.standardName ? [text('standard_name', v.standardName)] : []),
        text('long_name', v.longName),
        text('units', v.units),
        ...(v.cellMethods ? [text('cell_methods', v.cellMethods)] : []),
        { name: '_FillValue', type: NC_FLOAT, value: [NODATA] },
      ],
      size: 4 * cells,
    })),
  ];
  return { dims, variables };
}

/** The header, given where each variable's data begins. */
function header(layout: RasterLayout, dims: { name: string; length: number }[], variables: Variable[], begins: number[]): Buffer {
  const out = new HeaderBytes();
  out.padded(Buffer.from([0x43, 0x44, 0x46, 0x02])); // "CDF" and 2: 64-bit offsets
  out.int(0); // numrecs: no record dimension
  out.int(NC_DIMENSION);
  out.int(dims.length);
  for (const d of dims) {
    out.name(d.name);
    out.int(d.length);
  }
  attributeList(out, [
    text('Conventions', 'CF-1.8'),
    text('title', layout.title),
    text('institution', 'Fieldcast'),
    text('source', layout.source),
    text('history', layout.history),
  ]);
  out.int(NC_VARIABLE);
  out.int(variables.length);
  variables.forEach((v, i) => {
    out.name(v.name);
    out.int(v.dims.length);
    for (const d of v.dims) out.int(d);
    attributeList(out, v.attributes);
    out.int(v.type);
    // vsize is a 32-bit count; a larger variable states 2^32 - 1 (permitted for the last one).
    out.int(Math.min(v.size, 0xffffffff) | 0);
    out.int64(begins[i]!);
  });
  return out.bytes();
}

/**
 * Writes the NetCDF file. Rows arrive north to south with every time step; they are gathered in
 * bands of rows, so each (variable, time) block of a band is one contiguous write. Returns the
 * file's size.
 */
export async function writeNetcdf(layout: RasterLayout, rows: RasterRows, sink: PositionalSink): Promise<number> {
  const { dims, variables } = variablesOf(layout);
  // The header's size does not depend on the offsets it records: measure it with zeros.
  const headerSize = header(
    layout,
    dims,
    variables,
    variables.map(() => 0),
  ).length;
  const begins: number[] = [];
  let position = headerSize;
  for (const v of variables) {
    begins.push(position);
    position += v.size + ((4 - (v.size % 4)) % 4);
  }
  await sink.write(header(layout, dims, variables, begins), 0);

  const coords = variables.length - layout.variables.length;
  const doubles = (values: ArrayLike<number>) => {
    const b = Buffer.alloc(8 * values.length);
    for (let i = 0; i < values.length; i++) b.writeDoubleBE(values[i]!, i * 8);
    return b;
  };
  if (layout.times.length > 0) await sink.write(doubles(layout.times.map((t) => t / 3_600_000)), begins[0]!);
  await sink.write(doubles(layout.lats), begins[coords - 2]!);
  await sink.write(doubles(layout.lons), begins[coords - 1]!);

  const nLat = layout.lats.length;
  const nLon = layout.lons.length;
  const nt = Math.max(1, layout.times.length);
  const bandRows = Math.max(1, Math.min(nLat, Math.floor(4_000_000 / (nLon * 4 * nt * layout.variables.length))));
  const band = layout.variables.map(() => Buffer.alloc(nt * bandRows * nLon * 4));
  let row = 0;
  let first = 0;
  const flush = async () => {
    const count = row - first;
    for (let v = 0; v < layout.variables.length; v++) {
      for (let t = 0; t < nt; t++) {
        const start = t * bandRows * nLon * 4;
        const at = begins[coords + v]! + (t * nLat + first) * nLon * 4;
        await sink.write(band[v]!.subarray(start, start + count * nLon * 4), at);
      }
    }
    first = row;
  };
  for await (const values of rows) {
    const y = row - first;
    for (let v = 0; v < layout.variables.length; v++) {
      const source = values[v]!;
      const target = band[v]!;
      for (let t = 0; t < nt; t++) {
        let at = (t * bandRows + y) * nLon * 4;
        for (let x = 0; x < nLon; x++, at += 4) {
          const value = source[t * nLon + x]!;
          target.writeFloatBE(Number.isNaN(value) ? NODATA : value, at);
        }
      }
    }
    row++;
    if (row - first === bandRows) await flush();
  }
  if (row !== nLat) throw new Error(`the NetCDF file got ${row} rows of ${nLat}`);
  if (row > first) await flush();
  return position;
}
