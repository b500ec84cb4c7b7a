import { makeBlock } from '../src/synthetic/block.js';

/**
 * The four 0.01° grid points around (lon, lat), as SyntheticSource.pointSeriesSync finds them
 * (rows south to north, the last row clamped at 90°N, columns wrapping at 180°), and their
 * bilinear weights (w00, w01, w10, w11): the reference the fused 2 x 2 paths are tested against.
 */
export function gridQuad(lon: number, lat: number): { block: ReturnType<typeof makeBlock>; w: [number, number, number, number] } {
  const y = (lat + 90) * 100;
  let i0 = Math.floor(y);
  let fy = y - i0;
  if (i0 >= 18000) {
    i0 = 17999;
    fy = 1;
  }
  const x = (lon + 180) * 100;
  const j = Math.floor(x);
  const fx = x - j;
  const j0 = j % 36000, j1 = (j + 1) % 36000;
  const block = makeBlock(Float64Array.of((i0 - 9000) / 100, (i0 - 8999) / 100), Float64Array.of((j0 - 18000) / 100, (j1 - 18000) / 100));
  return { block, w: [(1 - fy) * (1 - fx), (1 - fy) * fx, fy * (1 - fx), fy * fx] };
}
