/**
 * Turning stored CF values into physical float32 values:
 * - missing data: `_FillValue`, `missing_value`, and values outside `valid_min`/`valid_max`/
 *   `valid_range` are missing (CF 1.11 section 2.5.1); they become NaN;
 * - packed data: unpacked = packed * scale_factor + add_offset (CF 8.1), tested on the packed
 *   values, as CF requires for the missing-value attributes;
 * - `_Unsigned = "true"` marks integer data to be read as unsigned (NetCDF Users Guide,
 *   "Attribute Conventions"), the classic format having no unsigned types.
 */
function numbers(v: unknown): number[] {
  if (v === undefined || v === null || typeof v === 'string') return [];
  if (typeof v === 'number' || typeof v === 'bigint') return [Number(v)];
  if (ArrayBuffer.isView(v) || Array.isArray(v)) return Array.from(v as ArrayLike<number>, Number);
  return [];
}

function first(v: unknown): number | undefined {
  return numbers(v)[0];
}

/** Attributes that describe the stored encoding and no longer apply after unpacking. */
export const ENCODING_ATTRS = new Set([
  '_FillValue',
  'missing_value',
  'valid_min',
  'valid_max',
  'valid_range',
  'scale_factor',
  'add_offset',
  '_Unsigned',
]);

/** The stored type of the values: integers of `bits` bits, or IEEE floats of 32 or 64 bits. */
export interface StoredType {
  kind: 'int' | 'float';
  bits: number;
}

export function unpack(raw: ArrayLike<number | bigint>, attrs: Record<string, unknown>, type: StoredType): Float32Array {
  const integerBits = type.kind === 'int' ? type.bits : 0;
  // A missing value is the stored value nearest it: a double `missing_value = 1.e+20` on float32
  // data (CDL written without the "f" suffix) marks the float32 1e20, as netCDF4-python and
  // xarray read it, casting it to the data's type.
  const inType = (v: number) => (type.kind === 'float' && type.bits === 32 ? Math.fround(v) : v);
  const missing = [...numbers(attrs._FillValue), ...numbers(attrs.missing_value)].map(inType);
  const range = numbers(attrs.valid_range);
  const vmin = first(attrs.valid_min) ?? range[0] ?? -Infinity;
  const vmax = first(attrs.valid_max) ?? range[1] ?? Infinity;
  const scale = first(attrs.scale_factor) ?? 1;
  const offset = first(attrs.add_offset) ?? 0;
  const unsigned = integerBits > 0 && String(attrs._Unsigned).toLowerCase() === 'true';
  const wrap = 2 ** integerBits;
  const fix = (v: number) => (unsigned && v < 0 ? v + wrap : v);
  const missingFixed = missing.map(fix);
  const out = new Float32Array(raw.length);
  for (let k = 0; k < raw.length; k++) {
    const v = fix(Number(raw[k]));
    out[k] = Number.isNaN(v) || missingFixed.includes(v) || v < vmin || v > vmax ? NaN : v * scale + offset;
  }
  return out;
}
