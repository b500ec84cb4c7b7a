// Elevation from the SRTM30 tiles that Debian's marble-qt-data ships.
//
// Two tile sets, both equirectangular over the whole globe, 675 x 675 pixels a tile, tiles
// named <level>/<row>/<row>_<col> (6 digits), level 0 being two tiles side by side:
//   maps/earth/srtm   8-bit grayscale JPEG, levels 0-3; level 3 is 16 x 8 tiles, 2 arc
//                     minutes a pixel, whole globe (bathymetry below roughly grey 95). Its
//                     theme (srtm.dgml) states "Made with Natural Earth ... Public Domain".
//                     The grey values are a monotone but undocumented height ramp.
//   maps/earth/srtm2  lossless RGB PNG, level 0 only (16 arc minutes a pixel); Marble's
//                     ElevationModel reads a height as the low 16 bits of the pixel
//                     (green * 256 + blue) as a signed short, 32768 meaning no data. It covers
//                     SRTM's 60 N to 56 S only, 0 outside it and at sea.
// So the grey ramp is calibrated against srtm2 (metres) where both have data, and the
// calibrated grey tiles give heights everywhere, Greenland and Antarctica included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

const TILE = 675;

function tilePath(root: string, theme: string, level: number, row: number, col: number, ext: string): string {
  const r = String(row).padStart(6, '0');
  const c = String(col).padStart(6, '0');
  return join(root, 'maps', 'earth', theme, String(level), r, `${r}_${c}.${ext}`);
}

export interface Raster<T> {
  width: number;
  height: number;
  data: T;
}

/** The level-3 grayscale mosaic, 10800 x 5400 pixels, row 0 at 90 N, column 0 at 180 W. */
export function readGreyMosaic(root: string): Raster<Uint8Array> {
  const level = 3;
  const rows = 8;
  const cols = 16;
  const width = cols * TILE;
  const height = rows * TILE;
  const data = new Uint8Array(width * height);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const image = jpeg.decode(readFileSync(tilePath(root, 'srtm', level, r, c, 'jpg')), {
        useTArray: true,
        formatAsRGBA: false,
      });
      if (image.width !== TILE || image.height !== TILE) throw new Error(`srtm tile ${r}/${c}: unexpected size`);
      const channels = image.data.length / (TILE * TILE);
      for (let y = 0; y < TILE; y++) {
        for (let x = 0; x < TILE; x++) data[(r * TILE + y) * width + c * TILE + x] = image.data[(y * TILE + x) * channels]!;
      }
    }
  }
  return { width, height, data };
}

export const SRTM2_NO_DATA = -32768;

/** The level-0 srtm2 heights in metres, 1350 x 675 pixels, same orientation. */
export function readSrtm2Heights(root: string): Raster<Int16Array> {
  const width = 2 * TILE;
  const height = TILE;
  const data = new Int16Array(width * height);
  for (let c = 0; c < 2; c++) {
    const png = PNG.sync.read(readFileSync(tilePath(root, 'srtm2', 0, 0, c, 'png')));
    if (png.width !== TILE || png.height !== TILE) throw new Error(`srtm2 tile ${c}: unexpected size`);
    for (let y = 0; y < TILE; y++) {
      for (let x = 0; x < TILE; x++) {
        const i = (y * TILE + x) * 4;
        data[y * width + c * TILE + x] = (((png.data[i + 1]! << 8) | png.data[i + 2]!) << 16) >> 16;
      }
    }
  }
  return { width, height, data };
}

export interface GreyCalibration {
  /** Metres for each grey level 0..255, clipped at 0 (sea level). */
  metres: Float64Array;
  /** Grey levels that had enough matched pixels to be measured, with their medians. */
  measured: Array<{ grey: number; metres: number; pixels: number }>;
}

/**
 * Grey level to metres: for every srtm2 pixel with a height (above 0, below 9000, not the
 * no-data value) whose 8 x 8 block of grey pixels is nearly uniform (standard deviation at
 * most 2.5 levels, so the ramp's curvature does not bias the mean), the block's mean grey
 * votes for that height; a level's height is the median of its votes. Levels with fewer than
 * `minPixels` votes are interpolated, the ramp is made monotone, levels below the lowest
 * measured one are sea (0 m) and levels above the highest are extrapolated with the slope
 * of the top ten measured levels.
 */
export function calibrateGrey(grey: Raster<Uint8Array>, srtm2: Raster<Int16Array>, minPixels = 20): GreyCalibration {
  const ratio = grey.width / srtm2.width;
  if (ratio !== 8 || grey.height / srtm2.height !== 8) throw new Error('calibration expects an 8 x 8 block per srtm2 pixel');
  const votes: number[][] = Array.from({ length: 256 }, () => []);
  for (let y = 0; y < srtm2.height; y++) {
    for (let x = 0; x < srtm2.width; x++) {
      const h = srtm2.data[y * srtm2.width + x]!;
      if (h === SRTM2_NO_DATA || h <= 0 || h >= 9000) continue;
      let sum = 0;
      let sum2 = 0;
      for (let dy = 0; dy < 8; dy++) {
        for (let dx = 0; dx < 8; dx++) {
          const g = grey.data[(y * 8 + dy) * grey.width + x * 8 + dx]!;
          sum += g;
          sum2 += g * g;
        }
      }
      const mean = sum / 64;
      const sd = Math.sqrt(Math.max(0, sum2 / 64 - mean * mean));
      if (sd > 2.5) continue;
      votes[Math.round(mean)]!.push(h);
    }
  }
  const measured: GreyCalibration['measured'] = [];
  for (let g = 0; g < 256; g++) {
    const v = votes[g]!;
    if (v.length < minPixels) continue;
    v.sort((a, b) => a - b);
    measured.push({ grey: g, metres: v[v.length >> 1]!, pixels: v.length });
  }
  if (measured.length < 20) throw new Error('too few calibration levels');
  // Pool adjacent violators: the least-squares monotone fit to the medians.
  const blocks: Array<{ value: number; weight: number; count: number }> = [];
  for (const m of measured) {
    blocks.push({ value: m.metres, weight: 1, count: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.value > blocks[blocks.length - 1]!.value) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      const weight = a.weight + b.weight;
      blocks.push({ value: (a.value * a.weight + b.value * b.weight) / weight, weight, count: a.count + b.count });
    }
  }
  const monotone: number[] = [];
  for (const b of blocks) for (let i = 0; i < b.count; i++) monotone.push(b.value);

  const metres = new Float64Array(256);
  const first = measured[0]!.grey;
  const last = measured[measured.length - 1]!.grey;
  const top = Math.max(0, measured.length - 10);
  const slope = (monotone[measured.length - 1]! - monotone[top]!) / (measured[measured.length - 1]!.grey - measured[top]!.grey);
  for (let g = 0; g < 256; g++) {
    if (g < first) metres[g] = 0;
    else if (g > last) metres[g] = monotone[measured.length - 1]! + slope * (g - last);
    else {
      let k = 0;
      while (measured[k + 1] && measured[k + 1]!.grey <= g) k++;
      const a = measured[k]!;
      const b = measured[k + 1];
      metres[g] = !b || a.grey === g ? monotone[k]! : monotone[k]! + ((g - a.grey) / (b.grey - a.grey)) * (monotone[k + 1]! - monotone[k]!);
    }
    metres[g] = Math.max(0, metres[g]!);
  }
  return { metres, measured };
}

/** Mean height of each grid cell's pixels (metres, sea pixels counting as 0). */
export function cellElevation(grey: Raster<Uint8Array>, metres: Float64Array, nlon: number, nlat: number): Float32Array {
  const px = grey.width / nlon;
  const py = grey.height / nlat;
  if (!Number.isInteger(px) || !Number.isInteger(py)) throw new Error('grid must divide the 2 arc-minute mosaic');
  const out = new Float32Array(nlon * nlat);
  for (let j = 0; j < nlat; j++) {
    for (let i = 0; i < nlon; i++) {
      let sum = 0;
      for (let y = j * py; y < (j + 1) * py; y++) {
        for (let x = i * px; x < (i + 1) * px; x++) sum += metres[grey.data[y * grey.width + x]!]!;
      }
      out[j * nlon + i] = sum / (px * py);
    }
  }
  return out;
}
