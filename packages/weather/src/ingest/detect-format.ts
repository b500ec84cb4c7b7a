/**
 * Format detection from magic bytes, never from the file name:
 * - NetCDF classic "CDF\x01", 64-bit offset "CDF\x02", CDF-5 "CDF\x05" (NetCDF file format
 *   specification, "The NetCDF Classic Format Specification": magic).
 * - NetCDF-4 is HDF5: signature "\x89HDF\r\n\x1a\n" at offset 0, 512, 1024, 2048, ...
 *   (HDF5 File Format Specification 3.0, section II.A "Format Signature").
 * - TIFF "II*\0" / "MM\0*", BigTIFF "II+\0" / "MM\0+" (TIFF 6.0 section 2; BigTIFF spec).
 */
import { promises as fs } from 'node:fs';
import { IngestError } from './errors.js';

export type SourceFormat = 'netcdf-classic' | 'netcdf4' | 'geotiff';

const HDF5_SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

export async function detectFormat(file: string): Promise<SourceFormat> {
  const fh = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(8);
    await fh.read(head, 0, 8, 0);
    if (head.subarray(0, 3).toString('latin1') === 'CDF') {
      const v = head[3];
      if (v === 1 || v === 2) return 'netcdf-classic';
      if (v === 5)
        throw new IngestError(`${file}: NetCDF CDF-5 (64-bit data) is not supported; convert it with "nccopy -k nc4 <in> <out>"`);
      throw new IngestError(`${file}: unknown NetCDF classic version byte ${v}`);
    }
    const le = head[0] === 0x49 && head[1] === 0x49 && head[3] === 0;
    const be = head[0] === 0x4d && head[1] === 0x4d && head[2] === 0;
    if ((le && (head[2] === 42 || head[2] === 43)) || (be && (head[3] === 42 || head[3] === 43))) return 'geotiff';
    // HDF5 may sit behind a user block of 512 * 2^n bytes.
    const { size } = await fh.stat();
    for (let offset = 0; offset + 8 <= size; offset = offset === 0 ? 512 : offset * 2) {
      const sig = Buffer.alloc(8);
      await fh.read(sig, 0, 8, offset);
      if (sig.equals(HDF5_SIGNATURE)) return 'netcdf4';
    }
    throw new IngestError(`${file}: not a NetCDF (classic or NetCDF-4/HDF5) or GeoTIFF file (first bytes ${head.toString('hex')})`);
  } finally {
    await fh.close();
  }
}
