/**
 * Adaptive entropy decoding (CCSDS 121.0-B-3, "Lossless Data Compression", the coder libaec
 * implements and GRIB2 data representation 5.42 uses). The stream is a sequence of blocks of
 * `blockSize` samples, grouped `rsi` blocks to a reference sample interval; each block starts with
 * an option identifier of 3, 4 or 5 bits (1 or 2 with restricted codes for small samples):
 * 0 low entropy (one more bit: 0 a run of zero blocks, 1 the second extension), all ones
 * uncompressed, otherwise a split-sample block with k = id - 1 low bits per sample. With the
 * preprocessor, the first block of every interval starts with a raw reference sample and the other
 * samples are mapped prediction errors of a unit-delay predictor (121.0-B-3 §4).
 */
import { GribError } from '../errors.js';

/** libaec's flag bits, stored as they are in template 5.42 octet 22. */
export const AEC_DATA_SIGNED = 1;
export const AEC_DATA_PREPROCESS = 8;
export const AEC_RESTRICTED = 16;
export const AEC_PAD_RSI = 32;

/** The zero-block count that means "to the end of the segment" (121.0-B-3 §5.1.4, ROS). */
const ROS = 5;
/** Blocks per segment for zero-block runs (121.0-B-3 §5.1.4). */
const SEGMENT = 64;

/** Second-extension code m -> the pair's diagonal (sum of the pair) and the code that starts it. */
const SE_SUM: number[] = [];
const SE_START: number[] = [];
for (let sum = 0, m = 0; sum < 13; sum++) for (let j = 0; j <= sum; j++, m++) [SE_SUM[m], SE_START[m]] = [sum, m - j];

export interface AecParameters {
  bitsPerSample: number;
  blockSize: number;
  rsi: number;
  flags: number;
}

/** The stream as big-endian 32-bit words, with two zero words after it for the readers' look-ahead. */
function toWords(input: Uint8Array): Uint32Array {
  const words = new Uint32Array((input.length >>> 2) + 3);
  const whole = input.length >>> 2;
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  for (let i = 0; i < whole; i++) words[i] = view.getUint32(4 * i);
  for (let p = whole * 4, shift = 24; p < input.length; p++, shift -= 8) words[whole] = (words[whole]! | (input[p]! << shift)) >>> 0;
  return words;
}

/** `n` bits (1-32) at `bit`. */
function peek(words: Uint32Array, bit: number, n: number): number {
  const i = bit >>> 5;
  const s = bit & 31;
  const w = s === 0 ? words[i]! : ((words[i]! << s) | (words[i + 1]! >>> (32 - s))) >>> 0;
  return n === 32 ? w : w >>> (32 - n);
}

/** The number of zero bits from `bit` to the next one bit (a fundamental sequence, 121.0-B-3 §5.1.2). */
function zeros(words: Uint32Array, bit: number, lastWord: number): number {
  let i = bit >>> 5;
  const w = (words[i]! << (bit & 31)) >>> 0;
  if (w !== 0) return Math.clz32(w);
  let count = 32 - (bit & 31);
  for (i++; words[i] === 0; i++) {
    if (i >= lastWord) throw new GribError('CCSDS stream ends inside a block');
    count += 32;
  }
  return count + Math.clz32(words[i]!);
}

/** The first `count` samples of an AEC stream, as unsigned integers. */
export function decodeAec(input: Uint8Array, count: number, p: AecParameters): Uint32Array {
  const { bitsPerSample: n, blockSize, rsi, flags } = p;
  if (flags & AEC_DATA_SIGNED) throw new GribError('CCSDS signed samples are not used by GRIB2 and not supported');
  if (n < 1 || n > 32 || blockSize < 1 || blockSize & 1 || rsi < 1)
    throw new GribError(`CCSDS parameters ${n} bits, block ${blockSize}, rsi ${rsi}`);
  const idLen = n > 16 ? 5 : n > 8 ? 4 : flags & AEC_RESTRICTED ? (n <= 2 ? 1 : n <= 4 ? 2 : 0) : 3;
  if (idLen === 0) throw new GribError(`CCSDS restricted codes with ${n} bits per sample`);
  const idMax = 2 ** idLen - 1;
  const preprocess = (flags & AEC_DATA_PREPROCESS) !== 0;
  const xmax = 2 ** n - 1;
  const endBit = input.length * 8;
  // The fewest bits that code blocks are a zero-block run's: an option identifier, its selector bit
  // and a fundamental sequence of one bit at least (121.0-B-3 §5.1.4), for 64 blocks (one segment)
  // at most, or for no more blocks than its bits. A stream holds no more samples than that,
  // whatever section 5 says; checked before the samples' array is made.
  const most = Math.floor((endBit * SEGMENT * blockSize) / (idLen + 2));
  if (count > most)
    throw new GribError(
      `CCSDS stream of ${input.length} octets holds at most ${most} samples in blocks of ${blockSize}, section 5 says ${count}`,
    );
  const words = toWords(input);
  const lastWord = words.length - 1;
  // Room for the last block, which may run past `count`; a zero-block run's fill stops at the end.
  const out = new Uint32Array(count + blockSize);
  let bit = 0;
  let pos = 0;
  while (pos < count) {
    const start = pos;
    let block = 0;
    while (block < rsi && pos < count) {
      if (bit >= endBit) throw new GribError(`CCSDS stream ends after ${pos} of ${count} samples`);
      const ref = preprocess && block === 0 ? 1 : 0;
      const id = peek(words, bit, idLen);
      bit += idLen;
      if (id > 0 && id < idMax) {
        // Split sample: every sample's high part as a fundamental sequence, then its k low bits.
        const k = id - 1;
        if (ref) {
          out[pos++] = peek(words, bit, n);
          bit += n;
        }
        const from = pos;
        const to = pos + blockSize - ref;
        for (; pos < to; pos++) {
          const z = zeros(words, bit, lastWord);
          bit += z + 1;
          out[pos] = z;
        }
        if (k > 0) {
          for (let i = from; i < to; i++) {
            out[i] = out[i]! * 2 ** k + peek(words, bit, k);
            bit += k;
          }
        }
      } else if (id === idMax) {
        for (let i = 0; i < blockSize; i++, bit += n) out[pos++] = peek(words, bit, n);
      } else {
        const secondExtension = peek(words, bit, 1);
        bit += 1;
        if (ref) {
          out[pos++] = peek(words, bit, n);
          bit += n;
        }
        if (secondExtension === 0) {
          let zeroBlocks = zeros(words, bit, lastWord) + 1;
          bit += zeroBlocks;
          if (zeroBlocks === ROS) zeroBlocks = Math.min(rsi - block, SEGMENT - (block % SEGMENT));
          else if (zeroBlocks > ROS) zeroBlocks--;
          if (block + zeroBlocks > rsi) throw new GribError('CCSDS zero-block run past its reference sample interval');
          const zeroSamples = zeroBlocks * blockSize - ref;
          out.fill(0, pos, pos + zeroSamples);
          pos += zeroSamples;
          block += zeroBlocks;
          continue;
        }
        for (let i = ref; i < blockSize;) {
          const m = zeros(words, bit, lastWord);
          bit += m + 1;
          const sum = SE_SUM[m];
          if (sum === undefined) throw new GribError(`CCSDS second-extension code ${m} out of range`);
          const second = m - SE_START[m]!;
          if ((i & 1) === 0) {
            out[pos++] = sum - second;
            i++;
          }
          out[pos++] = second;
          i++;
        }
      }
      block++;
    }
    if (preprocess) unmap(out, start, Math.min(pos, out.length), xmax);
    if (flags & AEC_PAD_RSI) bit = (bit + 7) & ~7;
  }
  // The readers give zeros past the stream's end (toWords' padding); a stream that ends inside its
  // last block is a truncated section 7.
  if (bit > endBit) throw new GribError(`CCSDS stream of ${endBit} bits ends inside its last block, at bit ${bit}`);
  return out.subarray(0, count);
}

/**
 * The inverse of the preprocessor's mapping of prediction errors (121.0-B-3 §4.3, unsigned
 * samples): with theta the room between the prediction and the nearer bound, a mapped value up to
 * 2 theta is an error of +d/2 (even) or -(d+1)/2 (odd); a larger one is measured from that bound.
 */
function unmap(out: Uint32Array, start: number, end: number, xmax: number): void {
  let x = out[start]!;
  for (let i = start + 1; i < end; i++) {
    const d = out[i]!;
    const nearMax = xmax - x < x;
    const theta = nearMax ? xmax - x : x;
    if (d <= 2 * theta) x += d % 2 === 0 ? d / 2 : -(d + 1) / 2;
    else x = nearMax ? xmax - d : d;
    out[i] = x;
  }
}
