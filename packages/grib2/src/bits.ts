/**
 * Big-endian bit reading as GRIB2 packs its numbers (WMO Manual on Codes, FM 92 GRIB edition 2,
 * regulation 92.1.4: octets and bit fields most significant first; negative integers in
 * sign-and-magnitude, the high bit the sign, regulation 92.1.5).
 *
 * The readers refuse to read past the end of their bytes: section 7 holds exactly the bits its
 * template describes, so a read past it is a truncated data section, not zeros. The unpacking loops
 * leave that check to their callers, who compare the bits they need with `dataBits` once, before
 * any value is read.
 */
import { GribError } from './errors.js';

/**
 * Section 7's data in bits, for the callers' checks. Bit offsets go through 32-bit integer
 * operators (`>>>`, `&`), exact below 2^31: a data section of 2^28 octets (256 MiB) or more is
 * refused rather than read at wrong offsets.
 */
export function dataBits(data: Uint8Array): number {
  if (data.length >= 2 ** 28) throw new GribError(`section 7 holds ${data.length} octets of data; this decoder reads fewer than 2^28`);
  return data.length * 8;
}

/** The refusal of a read that needs more bits than section 7 holds: a truncated data section, or a size in section 5 that does not fit it. */
export function tooFewBits(what: string, needed: number, available: number): GribError {
  return new GribError(`section 7 holds ${available} bits of data; ${what} need ${needed}`);
}

/** An unsigned integer of `n` bits (0-53) at `bit`, refused past the end of `b`. */
export function readBits(b: Uint8Array, bit: number, n: number): number {
  if (bit + n > b.length * 8) throw tooFewBits(`${n} bits from bit ${bit}`, bit + n, b.length * 8);
  return bitsAt(b, bit, n);
}

/**
 * `readBits` unchecked. Its 4-octet window may reach past the end of `b` when the field lies in
 * the last octets; those reads give undefined, which the bit operators take as 0 and which fall
 * outside the field.
 */
function bitsAt(b: Uint8Array, bit: number, n: number): number {
  if (n === 0) return 0;
  if (n > 25) {
    const high = bitsAt(b, bit, n - 16);
    return high * 65536 + bitsAt(b, bit + n - 16, 16);
  }
  const p = bit >>> 3;
  const window = ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
  return ((window << (bit & 7)) >>> 0) >>> (32 - n);
}

/**
 * `count` unsigned integers of `n` bits packed back to back from `bit` (group references, widths,
 * lengths), refused as a whole if they run past the end of `bytes`.
 */
export function unpackUints(bytes: Uint8Array, bit: number, n: number, count: number): Uint32Array {
  if (bit + n * count > bytes.length * 8)
    throw tooFewBits(`${count} integers of ${n} bits from bit ${bit}`, bit + n * count, bytes.length * 8);
  const out = new Uint32Array(count);
  if (n > 0) for (let i = 0; i < count; i++, bit += n) out[i] = bitsAt(bytes, bit, n);
  return out;
}

/** A DataView of the bytes: V8 reads big-endian words through one far faster than byte by byte. */
export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** `readBits` through a DataView, octet by octet: the last values, where a 32-bit window would run past the end. */
function readBitsAt(view: DataView, bit: number, n: number): number {
  if (bit + n > view.byteLength * 8) throw tooFewBits(`${n} bits from bit ${bit}`, bit + n, view.byteLength * 8);
  let value = 0;
  for (let k = 0; k < n;) {
    const p = (bit + k) >>> 3;
    const offset = (bit + k) & 7;
    const take = Math.min(8 - offset, n - k);
    const byte = view.getUint8(p);
    value = value * 2 ** take + ((byte >>> (8 - offset - take)) & ((1 << take) - 1));
    k += take;
  }
  return value;
}

/**
 * `count` unsigned integers X of `n` bits packed back to back from `bit`, written to `out[at..]`
 * as offset + X * factor (the scaling of regulation 92.9.4 done in the same pass). Each case has
 * a loop of its own, so that the JIT's feedback for one (a field's million values) is not the
 * other's (complex packing's many short groups). The caller has checked that the view holds the
 * `n * count` bits from `bit` (against `dataBits`): the loops do not, and a read past the end would
 * throw (`readBitsAt`'s GribError, or DataView's RangeError), never give zeros.
 */
export function unpackInto(view: DataView, bit: number, n: number, count: number, out: Float32Array, at = 0, offset = 0, factor = 1): void {
  if (n === 0) out.fill(offset, at, at + count);
  else if ((bit & 7) === 0 && n === 8) unpackOctets(view, bit >>> 3, out, at, at + count, offset, factor);
  else if ((bit & 7) === 0 && n === 16) unpackPairs(view, bit >>> 3, out, at, at + count, offset, factor);
  else {
    const done = n <= 25 ? unpackWindows(view, bit, n, out, at, at + count, offset, factor) : at;
    for (let i = done, b = bit + (done - at) * n; i < at + count; i++, b += n) out[i] = offset + readBitsAt(view, b, n) * factor;
  }
}

function unpackOctets(view: DataView, p: number, out: Float32Array, from: number, to: number, offset: number, factor: number): void {
  for (let i = from; i < to; i++, p++) out[i] = offset + view.getUint8(p) * factor;
}

function unpackPairs(view: DataView, p: number, out: Float32Array, from: number, to: number, offset: number, factor: number): void {
  for (let i = from; i < to; i++, p += 2) out[i] = offset + view.getUint16(p) * factor;
}

/** Values of up to 25 bits through a 32-bit window, whatever their first bit's place in its octet; returns where it stopped (the last 4 octets are left to `readBitsAt`). */
function unpackWindows(
  view: DataView,
  bit: number,
  n: number,
  out: Float32Array,
  from: number,
  to: number,
  offset: number,
  factor: number,
): number {
  const drop = 32 - n;
  const lastWindow = view.byteLength - 4;
  let i = from;
  for (; i < to; i++, bit += n) {
    const p = bit >>> 3;
    if (p > lastWindow) break;
    out[i] = offset + (((view.getUint32(p) << (bit & 7)) >>> 0) >>> drop) * factor;
  }
  return i;
}

/**
 * `count` unsigned integers X of `n` bits (0-32) packed back to back from `bit`, written to
 * `out[at..]` as offset + X, exactly: a double holds every integer below 2^53, where float32 holds
 * them only up to 2^24 (complex packing adds group references of up to 32 bits to values of up to
 * 32, template 7.2). Unchecked, as `unpackInto`: the caller has checked the bits against `dataBits`.
 */
export function unpackIntegers(view: DataView, bit: number, n: number, count: number, out: Float64Array, at: number, offset: number): void {
  const end = at + count;
  if (n === 0) {
    out.fill(offset, at, end);
    return;
  }
  const lastWindow = view.byteLength - 4;
  let i = at;
  if (n <= 25) {
    const drop = 32 - n;
    for (; i < end; i++, bit += n) {
      const p = bit >>> 3;
      if (p > lastWindow) break;
      out[i] = offset + (((view.getUint32(p) << (bit & 7)) >>> 0) >>> drop);
    }
  } else {
    // 26-32 bits: the high n - 16 bits and the low 16, each through a 32-bit window.
    const highDrop = 32 - (n - 16);
    for (; i < end; i++, bit += n) {
      const low = bit + n - 16;
      if (low >>> 3 > lastWindow) break;
      const high = ((view.getUint32(bit >>> 3) << (bit & 7)) >>> 0) >>> highDrop;
      out[i] = offset + high * 65536 + (((view.getUint32(low >>> 3) << (low & 7)) >>> 0) >>> 16);
    }
  }
  // The last values, where a 32-bit window would run past the end.
  for (; i < end; i++, bit += n) out[i] = offset + readBitsAt(view, bit, n);
}

/** Sign-and-magnitude integers of 1, 2 and 4 octets (regulation 92.1.5). */
export function int8(b: Uint8Array, p: number): number {
  const v = b[p]!;
  return v & 0x80 ? -(v & 0x7f) : v;
}
export function int16(b: Uint8Array, p: number): number {
  const v = uint16(b, p);
  return v & 0x8000 ? -(v & 0x7fff) : v;
}
export function int32(b: Uint8Array, p: number): number {
  const v = uint32(b, p);
  return v >= 0x80000000 ? -(v - 0x80000000) : v;
}
/** A sign-and-magnitude integer of `n` bits. */
export function signMagnitude(value: number, n: number): number {
  const sign = 2 ** (n - 1);
  return value >= sign ? -(value - sign) : value;
}

export function uint16(b: Uint8Array, p: number): number {
  return (b[p]! << 8) | b[p + 1]!;
}
export function uint32(b: Uint8Array, p: number): number {
  return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
}
export function uint64(b: Uint8Array, p: number): number {
  return uint32(b, p) * 2 ** 32 + uint32(b, p + 4);
}
/** IEEE 754 single precision, big-endian (regulation 92.6.4: the reference value R). */
export function float32(b: Uint8Array, p: number): number {
  return new DataView(b.buffer, b.byteOffset + p, 4).getFloat32(0, false);
}
