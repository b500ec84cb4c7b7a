import { crc32, encodePng, encodePngSync } from '../src/domain/png.js';
import { decodePng, pixelAt } from './png-decode.js';

describe('PNG encoder', () => {
  it('computes the CRC-32 of the PNG specification (the IEND chunk type: AE 42 60 82)', () => {
    // Every PNG ends with 00 00 00 00 49 45 4E 44 AE 42 60 82: the CRC of "IEND" with no data.
    expect(crc32(Buffer.from('IEND', 'latin1'))).toBe(0xae426082);
    // The standard check value of CRC-32 (ISO-HDLC): "123456789" gives CBF43926.
    expect(crc32(Buffer.from('123456789', 'latin1'))).toBe(0xcbf43926);
  });

  it('writes signature, IHDR, IDAT and IEND, and every pixel decodes back exactly', async () => {
    const width = 37;
    const height = 23;
    const rgba = new Uint8Array(width * height * 4);
    // A gradient, a noise band and a flat block exercise every filter choice.
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = (y * width + x) * 4;
        rgba[o] = (x * 7) & 0xff;
        rgba[o + 1] = y < 8 ? (x * 31 + y * 17) % 251 : 200;
        rgba[o + 2] = (x * y) & 0xff;
        rgba[o + 3] = y % 3 === 0 ? 255 : (x * 13) & 0xff;
      }
    }
    for (const png of [await encodePng(rgba, width, height), encodePngSync(rgba, width, height)]) {
      const decoded = decodePng(png);
      expect(decoded.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
      expect([decoded.width, decoded.height]).toEqual([width, height]);
      expect(Buffer.from(decoded.rgba).equals(Buffer.from(rgba))).toBe(true);
      expect(pixelAt(decoded, 5, 3)).toEqual([21, (3 * 31 + 5 * 17) % 251, 15, (3 * 13) & 0xff]);
    }
  });

  it('refuses a buffer that is not width x height x 4 bytes', async () => {
    await expect(encodePng(new Uint8Array(10), 2, 2)).rejects.toThrow(RangeError);
  });
});
