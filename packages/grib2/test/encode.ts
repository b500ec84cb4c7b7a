/**
 * A GRIB2 writer for tests and the bench: regular latitude/longitude grids (template 3.0), products
 * 4.0 and 4.8, and the packings whose encoders are simple enough to write from WMO FM 92's
 * description: 5.0 simple packing and 5.2/5.3 complex packing with spatial differencing of order
 * 1 or 2 and missing value management (code table 5.5) - the ones Debian 12's ecCodes 2.28 cannot
 * write (its grid_complex_spatial_differencing has order 0). tests/integration/grib2-eccodes.int.test.ts
 * checks that ecCodes and GDAL read what this writes before our decoder is compared with them.
 * `ComplexGroups` writes complex packing's groups exactly as given, for the messages an encoder
 * would not choose: references of all ones in groups of width 0, codes of missing values in groups
 * of up to 32 bits.
 */

export interface GridSpec {
  ni: number;
  nj: number;
  /** First grid point and the increments, degrees; scanning mode as flag table 3.4. */
  lat1: number;
  lon1: number;
  dLat: number;
  dLon: number;
  scanningMode?: number;
}

export type PackingSpec =
  | { template: 0; decimal: number; bits?: number }
  | { template: 2 | 3; decimal: number; order?: 0 | 1 | 2; missingManagement?: 0 | 1 | 2; groupLengths?: number[] };

/**
 * Complex packing written exactly as given, for messages an encoder would not choose to write:
 * each group's reference, width, length and packed integers X (the codes of missing values
 * included), under R = `reference` and the decimal scale factor, E = 0.
 */
export interface ComplexGroups {
  template: 2 | 3;
  decimal: number;
  /** R (section 5 octets 12-15), a float32. */
  reference: number;
  /** Bits of each group reference (section 5 octet 20). */
  referenceBits: number;
  missingManagement: 0 | 1 | 2;
  /** `values` holds `length` integers of `width` bits; none for a group of width 0. */
  groups: Array<{ reference: number; width: number; length: number; values?: number[] }>;
  /** Template 5.3: the order, and the first values and minimum of the differences (section 7's extra descriptors). */
  differencing?: { order: 1 | 2; first: number; second?: number; minimum: number };
}

export interface MessageSpec {
  grid: GridSpec;
  packing: PackingSpec;
  discipline?: number;
  category?: number;
  number?: number;
  surface?: { type: number; value: number };
  referenceTimeMs?: number;
  forecastHours?: number;
  /** Template 4.8: code table 4.10 process over the `rangeHours` ending at `forecastHours`. */
  statistic?: { process: number; rangeHours: number };
  /** NaN values left out and marked in a bitmap (section 6), as GFS does for masked fields; without it complex packing codes NaN in its groups (missing value management). */
  bitmap?: boolean;
}

export class BitWriter {
  private readonly bytes: number[] = [];
  private bit = 0;
  write(value: number, n: number): void {
    for (let k = n - 1; k >= 0; k--) {
      if ((this.bit & 7) === 0) this.bytes.push(0);
      if (Math.floor(value / 2 ** k) % 2) this.bytes[this.bytes.length - 1]! |= 0x80 >> (this.bit & 7);
      this.bit++;
    }
  }
  align(): void {
    this.bit = (this.bit + 7) & ~7;
  }
  toBytes(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** Minimum and maximum without spreading a million arguments onto the stack. */
const min = (xs: number[]) => xs.reduce((a, b) => (b < a ? b : a), Infinity);
const max = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), -Infinity);
const bitLength = (x: number) => (x <= 0 ? 0 : Math.floor(Math.log2(x)) + 1);
/** Sign-and-magnitude (regulation 92.1.5). */
const signed = (v: number, n: number) => (v < 0 ? 2 ** (n - 1) - v : v);

function section(number: number, body: BitWriter): Uint8Array {
  const content = body.toBytes();
  const out = new Uint8Array(5 + content.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out[4] = number;
  out.set(content, 5);
  return out;
}

/** Year (16 bits), month, day, hour, minute, second (8 bits each), as sections 1 and 4 hold a time. */
const timeFields = (t: Date): Array<readonly [number, number]> => [
  [t.getUTCFullYear(), 16],
  [t.getUTCMonth() + 1, 8],
  [t.getUTCDate(), 8],
  [t.getUTCHours(), 8],
  [t.getUTCMinutes(), 8],
  [t.getUTCSeconds(), 8],
];

/** Latitude and longitude of every point, in the message's scanning order (flag table 3.4). */
export function pointsInScanningOrder(g: GridSpec): { lat: Float64Array; lon: Float64Array } {
  const mode = g.scanningMode ?? 0;
  const n = g.ni * g.nj;
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const [i, j] = mode & 0x20 ? [Math.floor(k / g.nj), k % g.nj] : [k % g.ni, Math.floor(k / g.ni)];
    lon[k] = g.lon1 + (mode & 0x80 ? -1 : 1) * i * g.dLon;
    lat[k] = g.lat1 + (mode & 0x40 ? 1 : -1) * j * g.dLat;
  }
  return { lat, lon };
}

/** A message whose complex packing is written as given (`ComplexGroups`). */
export type GroupsMessageSpec = Omit<MessageSpec, 'packing'> & { packing: ComplexGroups };

/** One GRIB2 message holding `values` (in the grid's scanning order; NaN for missing). */
export function encodeMessage(values: ArrayLike<number>, spec: MessageSpec | GroupsMessageSpec): Uint8Array {
  const { grid } = spec;
  const mode = grid.scanningMode ?? 0;
  const n = grid.ni * grid.nj;
  if (values.length !== n) throw new Error(`${values.length} values for ${n} points`);
  const t = new Date(spec.referenceTimeMs ?? Date.UTC(2024, 2, 15, 6));

  const s1 = new BitWriter();
  for (const [v, bits] of [[7, 16], [0, 16], [2, 8], [1, 8], [1, 8], ...timeFields(t), [0, 8], [1, 8]] as const) s1.write(v, bits);

  const micro = (deg: number) => Math.round(deg * 1e6);
  const lat2 = grid.lat1 + (mode & 0x40 ? 1 : -1) * (grid.nj - 1) * grid.dLat;
  const lon2 = grid.lon1 + (mode & 0x80 ? -1 : 1) * (grid.ni - 1) * grid.dLon;
  const s3 = new BitWriter();
  s3.write(0, 8);
  s3.write(n, 32);
  s3.write(0, 8);
  s3.write(0, 8);
  s3.write(0, 16); // template 3.0
  s3.write(6, 8); // shape of the earth: sphere of 6,371,229 m
  for (let k = 0; k < 15; k++) s3.write(0, 8);
  s3.write(grid.ni, 32);
  s3.write(grid.nj, 32);
  s3.write(0, 32);
  s3.write(0xffffffff, 32);
  s3.write(signed(micro(grid.lat1), 32), 32);
  s3.write(signed(micro(grid.lon1), 32), 32);
  s3.write(0x30, 8); // both increments given
  s3.write(signed(micro(lat2), 32), 32);
  s3.write(signed(micro(lon2), 32), 32);
  s3.write(micro(grid.dLon), 32);
  s3.write(micro(grid.dLat), 32);
  s3.write(mode, 8);

  const s4 = new BitWriter();
  const stat = spec.statistic;
  const hours = spec.forecastHours ?? 0;
  s4.write(0, 16);
  s4.write(stat ? 8 : 0, 16);
  s4.write(spec.category ?? 0, 8);
  s4.write(spec.number ?? 0, 8);
  s4.write(2, 8); // forecast
  s4.write(0, 8);
  s4.write(96, 8);
  s4.write(0, 16);
  s4.write(0, 8);
  s4.write(1, 8); // hours
  s4.write(stat ? hours - stat.rangeHours : hours, 32);
  const surface = spec.surface ?? { type: 103, value: 2 };
  s4.write(surface.type, 8);
  s4.write(0, 8);
  s4.write(surface.value, 32);
  s4.write(255, 8);
  s4.write(255, 8);
  s4.write(0xffffffff, 32);
  if (stat) {
    const end = new Date(t.getTime() + hours * 3_600_000);
    for (const [v, bits] of [
      ...timeFields(end),
      [1, 8],
      [0, 32],
      [stat.process, 8],
      [2, 8],
      [1, 8],
      [stat.rangeHours, 32],
      [1, 8],
      [0, 32],
    ] as const)
      s4.write(v, bits);
  }

  const present = Array.from(values, (v) => !Number.isNaN(v));
  const useBitmap = spec.bitmap === true;
  const packed = useBitmap ? Array.from(values).filter((_, k) => present[k]) : Array.from(values);
  const p = spec.packing;
  const [s5, s7] = p.template === 0 ? packSimple(packed, p) : 'groups' in p ? writeComplex(packed.length, p) : packComplex(packed, p);

  const s6 = new BitWriter();
  if (useBitmap) {
    s6.write(0, 8);
    for (const p of present) s6.write(p ? 1 : 0, 1);
  } else s6.write(255, 8);

  const parts = [section(1, s1), section(3, s3), section(4, s4), section(5, s5), section(6, s6), section(7, s7)];
  const length = 16 + parts.reduce((sum, p) => sum + p.length, 0) + 4;
  const out = new Uint8Array(length);
  out.set([0x47, 0x52, 0x49, 0x42, 0, 0, spec.discipline ?? 0, 2]);
  new DataView(out.buffer).setBigUint64(8, BigInt(length));
  let at = 16;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set([0x37, 0x37, 0x37, 0x37], at);
  return out;
}

function float32Bits(x: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0);
}

/**
 * Template 5.0 / 7.0 with E = 0: X = round(Y 10^D) - R. A constant field gets no bits and R the
 * value itself, whatever D, as NCEP's g2lib (simpack) and ECMWF's ecCodes write it.
 */
function packSimple(values: number[], p: { decimal: number; bits?: number }): [BitWriter, BitWriter] {
  const scaled = values.map((v) => Math.round(v * 10 ** p.decimal));
  const bits = p.bits ?? (scaled.length ? bitLength(max(scaled) - min(scaled)) : 0);
  const reference = scaled.length === 0 ? 0 : bits === 0 ? values[0]! : min(scaled);
  const s5 = new BitWriter();
  s5.write(values.length, 32);
  s5.write(0, 16);
  s5.write(float32Bits(reference), 32);
  s5.write(0, 16);
  s5.write(signed(p.decimal, 16), 16);
  s5.write(bits, 8);
  s5.write(0, 8);
  const s7 = new BitWriter();
  for (const x of scaled) s7.write(x - reference, bits);
  return [s5, s7];
}

/**
 * Templates 5.2/5.3 and 7.2/7.3 (regulation 92.9.4 and the templates' notes): the scaled integers,
 * for 5.3 replaced by their differences of order 1 or 2 over the values that are not missing less
 * the differences' minimum (the first one or two values going to the extra descriptors); then
 * split into groups of the lengths in `groupLengths` (cycled), each packed as its minimum and the
 * width of its range. With missing value management, a missing value is all ones in its group's
 * width (every other one all ones less one, the secondary missing value, under management 2) and
 * a group of missing values only has width 0 and a reference of all ones.
 */
function packComplex(
  values: number[],
  p: { decimal: number; order?: 0 | 1 | 2; missingManagement?: 0 | 1 | 2; groupLengths?: number[]; template: 2 | 3 },
): [BitWriter, BitWriter] {
  const order = p.template === 3 ? (p.order ?? 2) : 0;
  const n = values.length;
  const present = values.map((v) => !Number.isNaN(v));
  const mvm = p.missingManagement ?? (present.every(Boolean) ? 0 : 1);
  if (mvm === 0 && !present.every(Boolean)) throw new Error('missing values need missing value management');
  const scaled = values.filter((_, k) => present[k]).map((v) => Math.round(v * 10 ** p.decimal));
  const reference = min(scaled);
  let ints = scaled.map((x) => x - reference);
  let first = 0;
  let second = 0;
  let minimum = 0;
  if (order > 0) {
    const d = ints.map((x, k) => (k < order ? 0 : order === 1 ? x - ints[k - 1]! : x - 2 * ints[k - 1]! + ints[k - 2]!));
    [first, second] = [ints[0]!, ints[1] ?? 0];
    minimum = min(d.slice(order));
    ints = d.map((x, k) => (k < order ? 0 : x - minimum));
  }
  // Every point in order; kind 0 a value, 1 primary missing, 2 secondary missing.
  const seq = new Array<number>(n).fill(0);
  const kind = new Array<number>(n).fill(0);
  let next = 0;
  let missingSeen = 0;
  for (let k = 0; k < n; k++) {
    if (present[k]) seq[k] = ints[next++]!;
    else kind[k] = mvm === 2 && missingSeen++ % 2 === 1 ? 2 : 1;
  }
  const cycle = p.groupLengths ?? [7, 12, 20, 33];
  const lengths: number[] = [];
  for (let total = 0; total < n;) {
    const len = Math.min(cycle[lengths.length % cycle.length]!, n - total);
    lengths.push(len);
    total += len;
  }
  const refs: number[] = [];
  const widths: number[] = [];
  for (let g = 0, at = 0; g < lengths.length; at += lengths[g]!, g++) {
    const ok = seq.slice(at, at + lengths[g]!).filter((_, k) => kind[at + k] === 0);
    if (ok.length === 0) {
      refs.push(-1);
      widths.push(0);
      continue;
    }
    const [lo, hi] = [min(ok), max(ok)];
    refs.push(lo);
    widths.push(hi === lo && ok.length === lengths[g] ? 0 : bitLength(hi - lo + mvm));
  }
  const refBits = Math.max(1, bitLength(max(refs) + mvm));
  const groupRefs = refs.map((r) => (r < 0 ? 2 ** refBits - 1 : r));
  const starts = new Array<number>(lengths.length).fill(0);
  for (let g = 1; g < lengths.length; g++) starts[g] = starts[g - 1]! + lengths[g - 1]!;
  return writeComplex(n, {
    template: p.template,
    decimal: p.decimal,
    reference,
    referenceBits: refBits,
    missingManagement: mvm,
    groups: groupRefs.map((ref, g) => {
      const [length, w] = [lengths[g]!, widths[g]!];
      const at = starts[g]!;
      const code = (k: number) => (kind[k] === 1 ? 2 ** w - 1 : kind[k] === 2 ? 2 ** w - 2 : seq[k]! - ref);
      return { reference: ref, width: w, length, values: w === 0 ? [] : Array.from({ length }, (_, k) => code(at + k)) };
    }),
    ...(order > 0 ? { differencing: { order: order as 1 | 2, first, second, minimum } } : {}),
  });
}

/** Sections 5 and 7 of complex packing with the groups as given (templates 5.2/5.3, 7.2/7.3; general group splitting, length increment 1). */
function writeComplex(n: number, c: ComplexGroups): [BitWriter, BitWriter] {
  const { groups } = c;
  const widths = groups.map((g) => g.width);
  const lengths = groups.map((g) => g.length);
  const widthRef = min(widths);
  const widthBits = bitLength(max(widths) - widthRef);
  const lengthRef = lengths.length > 1 ? min(lengths.slice(0, -1)) : lengths[0]!;
  const scaledLengths = lengths.map((l, g) => (g === lengths.length - 1 ? 0 : l - lengthRef));
  const lengthBits = bitLength(max(scaledLengths));
  const d = c.template === 3 ? c.differencing : undefined;

  const s7 = new BitWriter();
  let octets = 0;
  if (d) {
    const second = d.second ?? 0;
    octets = Math.max(1, Math.ceil((Math.max(bitLength(d.first), bitLength(second), bitLength(Math.abs(d.minimum))) + 1) / 8));
    s7.write(d.first, octets * 8);
    if (d.order === 2) s7.write(second, octets * 8);
    s7.write(signed(d.minimum, octets * 8), octets * 8);
  }
  for (const g of groups) s7.write(g.reference, c.referenceBits);
  s7.align();
  for (const w of widths) s7.write(w - widthRef, widthBits);
  s7.align();
  for (const l of scaledLengths) s7.write(l, lengthBits);
  s7.align();
  for (const g of groups) {
    if (g.width === 0) continue;
    if (g.values?.length !== g.length) throw new Error(`a group of ${g.length} values holds ${g.values?.length ?? 0}`);
    for (const x of g.values) s7.write(x, g.width);
  }

  const s5 = new BitWriter();
  s5.write(n, 32);
  s5.write(c.template, 16);
  s5.write(float32Bits(c.reference), 32);
  s5.write(0, 16);
  s5.write(signed(c.decimal, 16), 16);
  s5.write(c.referenceBits, 8);
  s5.write(0, 8);
  s5.write(1, 8); // general group splitting
  s5.write(c.missingManagement, 8);
  s5.write(float32Bits(9999), 32);
  s5.write(float32Bits(8888), 32);
  s5.write(groups.length, 32);
  s5.write(widthRef, 8);
  s5.write(widthBits, 8);
  s5.write(lengthRef, 32);
  s5.write(1, 8);
  s5.write(lengths[lengths.length - 1]!, 32);
  s5.write(lengthBits, 8);
  if (c.template === 3) {
    s5.write(d?.order ?? 0, 8);
    s5.write(octets, 8);
  }
  return [s5, s7];
}
