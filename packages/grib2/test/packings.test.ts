/**
 * The packings whose payload is another format's: CCSDS adaptive entropy coding (5.42, CCSDS
 * 121.0-B-3) on bit streams built here option by option, and PNG (5.41, ISO/IEC 15948) images
 * built here with each row filter of PNG §9.2. ecCodes' own JPEG 2000, PNG and CCSDS messages are
 * compared in tests/integration/grib2-eccodes.int.test.ts.
 */
import { crc32, deflateSync } from 'node:zlib';
import { GribError } from '../src/index.js';
import { AEC_DATA_PREPROCESS, decodeAec } from '../src/packing/aec.js';
import { decodeJpeg2000Samples } from '../src/packing/jpeg2000.js';
import { decodePngValues } from '../src/packing/png.js';
import { BitWriter } from './encode.js';

/** A fundamental sequence: `v` zeros then a one (121.0-B-3 §5.1.2). */
const fs = (w: BitWriter, v: number) => {
  for (let k = 0; k < v; k++) w.write(0, 1);
  w.write(1, 1);
};

describe('CCSDS adaptive entropy decoding (5.42)', () => {
  it('reads uncompressed, split-sample, second-extension and zero blocks', () => {
    // 8-bit samples, blocks of 8, 2 blocks per reference sample interval, no preprocessing: option ids of 3 bits.
    const w = new BitWriter();
    const uncompressed = [1, 2, 3, 4, 5, 6, 7, 8];
    w.write(7, 3);
    for (const x of uncompressed) w.write(x, 8);
    const split = [5, 0, 9, 3, 12, 1, 2, 7]; // k = 2: id 3, high parts as fundamental sequences, then the low 2 bits
    w.write(3, 3);
    for (const x of split) fs(w, x >> 2);
    for (const x of split) w.write(x & 3, 2);
    const pairs = [0, 1, 2, 0, 1, 1, 0, 0]; // second extension: id 0, bit 1, m = (a+b)(a+b+1)/2 + b per pair
    w.write(0, 3);
    w.write(1, 1);
    for (let i = 0; i < 8; i += 2) {
      const [a, b] = [pairs[i]!, pairs[i + 1]!];
      fs(w, ((a + b) * (a + b + 1)) / 2 + b);
    }
    w.write(0, 3); // zero block: id 0, bit 0, one block (fundamental sequence 0)
    w.write(0, 1);
    fs(w, 0);
    const out = decodeAec(w.toBytes(), 32, { bitsPerSample: 8, blockSize: 8, rsi: 2, flags: 0 });
    expect(Array.from(out)).toEqual([...uncompressed, ...split, ...pairs, ...new Array(8).fill(0)]);
  });

  it('undoes the preprocessor: reference samples and mapped prediction errors, near both bounds', () => {
    // 121.0-B-3 §4.3 by hand: errors of x after x̂ map to 2Δ, 2|Δ|-1, or θ + |Δ| beyond the nearer bound.
    const samples = [100, 101, 99, 99, 255, 0, 3, 2];
    const mapped = [100, 2, 3, 0, 255, 255, 3, 1];
    const w = new BitWriter();
    w.write(7, 3); // uncompressed: the reference sample is the block's first
    for (const x of mapped) w.write(x, 8);
    const out = decodeAec(w.toBytes(), 8, { bitsPerSample: 8, blockSize: 8, rsi: 1, flags: AEC_DATA_PREPROCESS });
    expect(Array.from(out)).toEqual(samples);
  });

  it('reads the reference sample ahead of a split-sample block', () => {
    const w = new BitWriter();
    w.write(2, 3); // k = 1
    w.write(50, 8); // reference sample
    const mapped = [4, 1, 0]; // 50 -> 52 -> 51 -> 51
    for (const x of mapped) fs(w, x >> 1);
    for (const x of mapped) w.write(x & 1, 1);
    const out = decodeAec(w.toBytes(), 4, { bitsPerSample: 8, blockSize: 4, rsi: 1, flags: AEC_DATA_PREPROCESS });
    expect(Array.from(out)).toEqual([50, 52, 51, 51]);
  });

  it('names a stream that ends early', () => {
    const w = new BitWriter();
    w.write(7, 3);
    w.write(1, 8);
    expect(() => decodeAec(w.toBytes(), 16, { bitsPerSample: 8, blockSize: 8, rsi: 2, flags: 0 })).toThrow(GribError);
  });

  /** Two uncompressed blocks of 8 samples of 8 bits: 2 x (3 + 64) = 134 bits in 17 octets. */
  const twoBlocks = () => {
    const w = new BitWriter();
    for (let b = 0; b < 2; b++) {
      w.write(7, 3);
      for (let i = 0; i < 8; i++) w.write(10 * b + i + 1, 8);
    }
    return w.toBytes();
  };
  const parameters = { bitsPerSample: 8, blockSize: 8, rsi: 2, flags: 0 };

  it('names a stream that ends inside its last block, rather than reading zeros past it', () => {
    expect(Array.from(decodeAec(twoBlocks(), 16, parameters))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(() => decodeAec(twoBlocks().subarray(0, 12), 16, parameters)).toThrow(
      new GribError('CCSDS stream of 96 bits ends inside its last block, at bit 134'),
    );
  });

  it('refuses more samples than the stream can hold before making their array', () => {
    // The cheapest code, a zero-block run of 3 + 2 bits, stands for 64 blocks at most: 96 bits hold 9830 samples of blocks of 8.
    expect(() => decodeAec(twoBlocks().subarray(0, 12), 10_000_000, parameters)).toThrow(
      new GribError('CCSDS stream of 12 octets holds at most 9830 samples in blocks of 8, section 5 says 10000000'),
    );
  });
});

/** A PNG (ISO/IEC 15948) of `rows` of raw pixel bytes, row y filtered with filter type y % 5 (§9.2). */
function png(width: number, height: number, depth: number, colourType: number, rows: Uint8Array[], bpp: number): Uint8Array {
  const paeth = (a: number, b: number, c: number) => {
    const p = a + b - c;
    const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  };
  const filtered = rows.map((row, y) => {
    const above = rows[y - 1] ?? new Uint8Array(row.length);
    const type = y % 5;
    const out = [type];
    for (let x = 0; x < row.length; x++) {
      const a = x >= bpp ? row[x - bpp]! : 0;
      const b = above[x]!;
      const c = x >= bpp ? above[x - bpp]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][type]!;
      out.push((row[x]! - predictor) & 0xff);
    }
    return out;
  });
  const chunk = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(12 + body.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, body.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(body, 8);
    view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([depth, colourType, 0, 0, 0], 8);
  const parts = [
    Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Uint8Array.from(filtered.flat()))),
    chunk('IEND', new Uint8Array()),
  ];
  return Uint8Array.from(parts.flatMap((p) => Array.from(p)));
}

describe('PNG (5.41)', () => {
  const width = 9;
  const height = 10; // every filter type twice
  const value = (i: number, bits: number) => (i * 2654435761) % 2 ** bits;

  it.each([
    ['8-bit grey', 8, 0, 1],
    ['16-bit grey', 16, 0, 2],
    ['24-bit values as RGB', 8, 2, 3],
    ['32-bit values as RGBA', 8, 6, 4],
  ])('%s, through every row filter', (_name, depth, colourType, octets) => {
    const bits = octets * 8;
    const rows = Array.from({ length: height }, (_, y) => {
      const row = new Uint8Array(width * octets);
      for (let x = 0; x < width; x++) {
        const v = value(y * width + x, bits);
        for (let k = 0; k < octets; k++) row[x * octets + k] = Math.floor(v / 2 ** (8 * (octets - 1 - k))) & 0xff;
      }
      return row;
    });
    const out = decodePngValues(png(width, height, depth, colourType, rows, octets), width * height, 10, 0.5);
    expect(Array.from(out)).toEqual(Array.from({ length: width * height }, (_, i) => Math.fround(10 + value(i, bits) * 0.5)));
  });

  it('4-bit grey, rows padded to whole octets', () => {
    const rows = Array.from({ length: height }, (_, y) => {
      const row = new Uint8Array(Math.ceil(width / 2));
      for (let x = 0; x < width; x++) row[x >> 1]! |= value(y * width + x, 4) << (x & 1 ? 0 : 4);
      return row;
    });
    const out = decodePngValues(png(width, height, 4, 0, rows, 1), width * height, 0, 1);
    expect(Array.from(out)).toEqual(Array.from({ length: width * height }, (_, i) => value(i, 4)));
  });

  it('names bytes that are not a PNG image', () => {
    expect(() => decodePngValues(new Uint8Array(20), 4, 0, 1)).toThrow(new GribError('section 7 of a PNG-packed field is not a PNG image'));
  });

  const grey = () =>
    png(
      width,
      height,
      8,
      0,
      Array.from({ length: height }, (_, y) => Uint8Array.from({ length: width }, (_, x) => x + y)),
      1,
    );
  /** Offset of the IDAT chunk's data (PNG §5.3: length, type, data, CRC; the CRC is not checked). */
  const idatAt = (image: Uint8Array) => {
    for (let p = 8; ;) {
      const length = new DataView(image.buffer, image.byteOffset).getUint32(p);
      if (String.fromCharCode(...image.subarray(p + 4, p + 8)) === 'IDAT') return [p + 8, length] as const;
      p += 12 + length;
    }
  };

  it('names image data whose zlib stream is corrupt or cut short', () => {
    const corrupt = grey();
    corrupt[idatAt(corrupt)[0]] = 0; // the zlib header's CMF octet (RFC 1950 §2.2)
    expect(() => decodePngValues(corrupt, width * height, 0, 1)).toThrow(GribError);
    const cut = grey();
    const [at, length] = idatAt(cut);
    new DataView(cut.buffer).setUint32(at - 8, length >> 1);
    expect(() => decodePngValues(cut, width * height, 0, 1)).toThrow(GribError);
  });
});

describe('JPEG 2000 (5.40)', () => {
  /** SOC and a SIZ marker segment (ISO/IEC 15444-1 A.4.1, A.5.1) for one tile of `width` x `height`, then EOC. */
  const header = (width: number, height: number, bits = 8, components = 1) => {
    const b = new Uint8Array(42 + 3 * components + 2);
    const view = new DataView(b.buffer);
    view.setUint32(0, 0xff4fff51);
    view.setUint16(4, 38 + 3 * components);
    view.setUint32(8, width);
    view.setUint32(12, height);
    view.setUint32(24, width);
    view.setUint32(28, height);
    view.setUint16(40, components);
    for (let c = 0; c < components; c++) b.set([bits - 1, 1, 1], 42 + 3 * c);
    view.setUint16(b.length - 2, 0xffd9);
    return b;
  };

  it('names a code stream OpenJPEG cannot decode', async () => {
    await expect(decodeJpeg2000Samples(header(2, 2), 4)).rejects.toThrow(GribError);
  });

  it('names bytes that are not a code stream', async () => {
    await expect(decodeJpeg2000Samples(Uint8Array.from([0xff, 0x4f, 0xff, 0x51, 0, 0, 0, 0]), 4)).rejects.toThrow(
      new GribError('section 7 of a JPEG 2000-packed field is not a JPEG 2000 code stream (no SOC and SIZ markers)'),
    );
  });

  it('refuses, from its SIZ marker and before OpenJPEG allocates it, an image larger than the grid or smaller than the values', async () => {
    await expect(decodeJpeg2000Samples(header(60000, 60000), 4)).rejects.toThrow(
      new GribError("JPEG 2000 image of 60000 x 60000, more samples than the grid's 4 points"),
    );
    await expect(decodeJpeg2000Samples(header(2, 2), 5, 6)).rejects.toThrow(new GribError('JPEG 2000 image of 2 x 2 for 5 values'));
    await expect(decodeJpeg2000Samples(header(2, 2, 8, 3), 4)).rejects.toThrow(
      new GribError('JPEG 2000 image of 3 components (GRIB2 uses one)'),
    );
  });
});
