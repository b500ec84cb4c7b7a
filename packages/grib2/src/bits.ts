/**
 * Big-endian bit reading as GRIB2 packs its numbers (WMO Manual on Codes, FM 92 GRIB edition 2,
 * regulation 92.1.4: octets and bit fields most significant first; negative integers in
 * sign-and-magnitude, the high bit the sign, regulation 92.1.5).
 */

/** The bytes plus a few zeros, so that a reader may load a whole 32-bit window at the end. */
export function padded(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 8);
  out.set(bytes);
  return out;
}

export class BitReader {
  /** Position in bits from the start of `bytes`. */
  pos: number;
  constructor(
    private readonly bytes: Uint8Array,
    startBit = 0,
  ) {
    this.pos = startBit;
  }

  /** An unsigned integer of `n` bits (0-32). */
  read(n: number): number {
    const value = readBits(this.bytes, this.pos, n);
    this.pos += n;
    return value;
  }

  /** Moves on to the next octet boundary (the packed arrays of templates 7.2/7.3 each start on one). */
  align(): void {
    this.pos = (this.pos + 7) & ~7;
  }
}

/** An unsigned integer of `n` bits (0-32) at `bit` of a buffer with 4 bytes of slack at its end. */
export function readBits(b: Uint8Array, bit: number, n: number): number {
  if (n === 0) return 0;
  if (n > 25) {
    const high = readBits(b, bit, n - 16);
    return high * 65536 + readBits(b, bit + n - 16, 16);
  }
  const p = bit >>> 3;
  const window = ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
  return ((window << (bit & 7)) >>> 0) >>> (32 - n);
}

/**
 * `count` unsigned integers of `n` bits each, packed back to back from `bit`, written to
 * `out[at..]`. `bytes` needs 4 bytes of slack after the last value (see `padded`).
 */
export function unpackInto(
  bytes: Uint8Array,
  bit: number,
  n: number,
  count: number,
  out: Float64Array | Float32Array | Uint32Array,
  at = 0,
): void {
  if (n === 0) {
    out.fill(0, at, at + count);
    return;
  }
  if ((bit & 7) === 0 && (n === 8 || n === 16)) {
    let p = bit >>> 3;
    if (n === 8) for (let i = 0; i < count; i++) out[at + i] = bytes[p++]!;
    else for (let i = 0; i < count; i++, p += 2) out[at + i] = (bytes[p]! << 8) | bytes[p + 1]!;
    return;
  }
  if (n > 25) {
    for (let i = 0; i < count; i++, bit += n) out[at + i] = readBits(bytes, bit, n);
    return;
  }
  const drop = 32 - n;
  for (let i = 0; i < count; i++, bit += n) {
    const p = bit >>> 3;
    const window = ((bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!) >>> 0;
    out[at + i] = ((window << (bit & 7)) >>> 0) >>> drop;
  }
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
