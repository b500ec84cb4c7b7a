// The Legates & Willmott climatology maps of Debian's marble-qt-data (docs/data-sources.md), read
// for the derived check grids (derive-temperature-check.ts, derive-precipitation-check.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';

/** One map's grey channel: 2160 x 1080 pixels of 10 arc minutes, row 0 at 90 N, column 0 at 180 W. */
export interface GreyMap {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The grey channel of the theme's map (maps/earth/<theme>/<theme>.jpg under the Marble data directory). */
export function readClimatologyMap(root: string, theme: string): GreyMap {
  const image = jpeg.decode(readFileSync(join(root, 'maps', 'earth', theme, `${theme}.jpg`)), { useTArray: true, formatAsRGBA: false });
  const channels = image.data.length / (image.width * image.height);
  const data = new Uint8Array(image.width * image.height);
  for (let i = 0; i < data.length; i++) data[i] = image.data[i * channels]!;
  if (image.width !== 2160 || image.height !== 1080)
    throw new Error(`${theme}: expected 2160 x 1080 pixels, got ${image.width} x ${image.height}`);
  return { width: image.width, height: image.height, data };
}

/** The mean reading (the palette's value of each grey) of the 3 x 3 pixels around a point: a station's check. */
export function readAround(g: GreyMap, lat: number, lon: number, reading: (grey: number) => number): number {
  const x = Math.floor(((lon + 180) / 360) * g.width),
    y = Math.floor(((90 - lat) / 180) * g.height);
  let s = 0;
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) s += reading(g.data[(y + dy) * g.width + ((x + dx + g.width) % g.width)]!);
  return s / 9;
}
