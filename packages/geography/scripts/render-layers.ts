// Renders each layer of a geography file as a PNG, to look at what the derivation made:
//   tsx scripts/render-layers.ts [file] [outDir]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { decodeGridFile, storedToValue } from '../src/grid-file.js';

const file = process.argv[2] ?? new URL('../data/earth-geography.bin', import.meta.url).pathname;
const outDir = process.argv[3] ?? '.';
const { shape, layers } = decodeGridFile(readFileSync(file));
const colour: Record<string, (v: number) => [number, number, number]> = {
  elevation: (v) => (v <= 0 ? [20, 40, 120] : [Math.min(255, 40 + v / 20), Math.min(255, 90 + v / 30), Math.min(255, 30 + v / 25)]),
  land: (v) => [v * 255, v * 255, v * 255],
  coast: (v) => (v >= 0 ? [Math.min(255, v / 4), 120, 40] : [0, 60, Math.min(255, 80 - v / 10)]),
  continental: (v) => [v * 255, 60, (1 - v) * 255],
};
for (const [name, layer] of layers) {
  const png = new PNG({ width: shape.nlon, height: shape.nlat });
  for (let k = 0; k < layer.values.length; k++) {
    const [r, g, b] = (colour[name] ?? colour['land']!)(storedToValue(layer, layer.values[k]!));
    png.data[4 * k] = r;
    png.data[4 * k + 1] = g;
    png.data[4 * k + 2] = b;
    png.data[4 * k + 3] = 255;
  }
  writeFileSync(join(outDir, `${name}.png`), PNG.sync.write(png));
}
