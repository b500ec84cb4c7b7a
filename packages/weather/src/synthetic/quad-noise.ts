/**
 * Space-time value noise (noise.ts) at the four cells of a 2 x 2 block, for the fused point
 * series paths (quad-extremes.ts, quad-hourly.ts). A point series reads the four grid points
 * around the point, 0.01 degrees apart, while the noise lattices are 1.25-10 degrees apart, so
 * the four cells nearly always share their lattice corners:
 *
 * - `quadNodes` hashes the corners of each time node once for all four cells and blends them
 *   with OctaveOverBlock.fill's arithmetic, rounded to float32 as fill stores them, so a node
 *   value here is bit for bit the general path's (the daily anchors' double form of it is the
 *   `scaledNodes` kernel, kernels/daily-anchors.wat, on `sharedCorners`);
 * - `octaveCycle` exploits that the times a series samples advance by a whole number of hours
 *   (24 h between daily anchors, 1 h between hourly values) while every octave's period is a
 *   whole number of hours: the position between time nodes then repeats every
 *   m = P / gcd(step, P) samples, and the node index advances by m step / P per cycle. The
 *   smoothstep weights are a table of m values per column instead of a floor and a cubic per
 *   sample (bench/README.md "Synthetic weather").
 */
import type { Block } from './block.js';
import { latticeAxis, mix32, type NoiseOctave, smoothstep } from './noise.js';

/** Node values of one octave at a 2 x 2 block: [k - kMin][cell], cells row-major. */
export interface QuadNodes {
  nodes: Float32Array;
  kMin: number;
  nK: number;
}

/**
 * The lattice corners shared by all four cells of a 2 x 2 block, when they share them (both rows
 * between the same two lattice rows, both columns between the same two columns; the common
 * case): latticeAxis's arithmetic for two coordinates without its node map. p0..p3 are the parts
 * of hash3(x, y, k, seed) = mix32(x P1 ^ y P2 ^ k P3 ^ seed) without k, per corner (x0y0, x1y0,
 * x0y1, x1y1); wx, wy the smoothstep weights of the two columns and rows. Null when the cells
 * straddle a lattice line.
 */
export function sharedCorners(seed: number, sp: number, block: { lats: ArrayLike<number>; lons: ArrayLike<number> }) {
  const y0 = (block.lats[0]! - -90) / sp, y1 = (block.lats[1]! - -90) / sp;
  const x0 = (block.lons[0]! - -180) / sp, x1 = (block.lons[1]! - -180) / sp;
  const iy = Math.floor(y0), ix = Math.floor(x0);
  if (Math.floor(y1) !== iy || Math.floor(x1) !== ix) return null;
  const wrap = Math.round(360 / sp);
  const cxa = ((ix % wrap) + wrap) % wrap, cxb = (((ix + 1) % wrap) + wrap) % wrap;
  const ya = Math.imul(iy, 19349663), yb = Math.imul(iy + 1, 19349663);
  return {
    p0: Math.imul(cxa, 73856093) ^ ya ^ seed,
    p1: Math.imul(cxb, 73856093) ^ ya ^ seed,
    p2: Math.imul(cxa, 73856093) ^ yb ^ seed,
    p3: Math.imul(cxb, 73856093) ^ yb ^ seed,
    wx0: smoothstep(x0 - ix),
    wx1: smoothstep(x1 - ix),
    wy0: smoothstep(y0 - iy),
    wy1: smoothstep(y1 - iy),
  };
}

/**
 * Unit-amplitude values of the octave's time nodes kMin .. kMin+nK-1 at the four cells of a 2 x 2
 * block, [k][cell], into `out` when it is large enough. OctaveOverBlock.fill's arithmetic: hash
 * the lattice corners the block uses, blend along longitude, then latitude, round to float32.
 */
export function quadNodes(octave: NoiseOctave, block: { lats: ArrayLike<number>; lons: ArrayLike<number> }, kMin: number, nK: number, out?: Float32Array): Float32Array {
  const values = out && out.length >= nK * 4 ? out : new Float32Array(nK * 4);
  const seed = octave.seed, sp = octave.spacingDeg;
  const shared = sharedCorners(seed, sp, block);
  if (shared) {
    const { p0, p1, p2, p3, wx0, wx1, wy0, wy1 } = shared;
    for (let q = 0, o = 0; q < nK; q++, o += 4) {
      const kz = Math.imul(kMin + q, 83492791);
      const a = mix32(p0 ^ kz) / 2147483648 - 1, b = mix32(p1 ^ kz) / 2147483648 - 1;
      const c = mix32(p2 ^ kz) / 2147483648 - 1, d = mix32(p3 ^ kz) / 2147483648 - 1;
      const ba = b - a, dc = d - c;
      const u0 = a + ba * wx0, v0 = c + dc * wx0, u1 = a + ba * wx1, v1 = c + dc * wx1;
      values[o] = u0 + (v0 - u0) * wy0;
      values[o + 1] = u1 + (v1 - u1) * wy0;
      values[o + 2] = u0 + (v0 - u0) * wy1;
      values[o + 3] = u1 + (v1 - u1) * wy1;
    }
    return values;
  }
  // The cells straddle a lattice line: OctaveOverBlock.fill's general form.
  const rows = latticeAxis(block.lats, -90, sp, 0);
  const cols = latticeAxis(block.lons, -180, sp, Math.round(360 / sp));
  const ny = rows.nodes.length, nx = cols.nodes.length;
  const ra0 = rows.a[0]! * nx, rb0 = rows.b[0]! * nx, ra1 = rows.a[1]! * nx, rb1 = rows.b[1]! * nx;
  const wy0 = rows.w[0]!, wy1 = rows.w[1]!;
  const xa0 = cols.a[0]!, xb0 = cols.b[0]!, xa1 = cols.a[1]!, xb1 = cols.b[1]!;
  const wx0 = cols.w[0]!, wx1 = cols.w[1]!;
  const nn = ny * nx;
  const part = new Int32Array(nn);
  for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) part[y * nx + x] = Math.imul(cols.nodes[x]!, 73856093) ^ Math.imul(rows.nodes[y]!, 19349663) ^ seed;
  const lattice = new Float64Array(nn);
  for (let q = 0; q < nK; q++) {
    const kz = Math.imul(kMin + q, 83492791);
    for (let c = 0; c < nn; c++) lattice[c] = mix32(part[c]! ^ kz) / 2147483648 - 1;
    const o = q * 4;
    values[o] = corner(lattice, ra0, rb0, xa0, xb0, wx0, wy0);
    values[o + 1] = corner(lattice, ra0, rb0, xa1, xb1, wx1, wy0);
    values[o + 2] = corner(lattice, ra1, rb1, xa0, xb0, wx0, wy1);
    values[o + 3] = corner(lattice, ra1, rb1, xa1, xb1, wx1, wy1);
  }
  return values;
}

/** The bilinear blend of OctaveOverBlock.fill for one cell. */
function corner(lattice: Float64Array, ra: number, rb: number, xa: number, xb: number, wx: number, wy: number): number {
  const v0 = lattice[ra + xa]! + (lattice[ra + xb]! - lattice[ra + xa]!) * wx;
  const v1 = lattice[rb + xa]! + (lattice[rb + xb]! - lattice[rb + xa]!) * wx;
  return v0 + (v1 - v0) * wy;
}

/** The node values of an octave covering every time in [tFirst, tLast] hours. */
export function quadOctave(octave: NoiseOctave, block: Block, tFirst: number, tLast: number, out?: Float32Array): QuadNodes {
  const p = octave.periodHours;
  const kMin = Math.floor(tFirst / p);
  const nK = Math.floor(tLast / p) + 2 - kMin;
  return { nodes: quadNodes(octave, block, kMin, nK, out), kMin, nK };
}

/**
 * Where the samples t_i = t0 + i step (hours; step and the period P whole hours) fall between an
 * octave's time nodes: sample i = m q + r lies between nodes k0[r] / 4 + kMin + L q and the next,
 * with smoothstep weight w[r]. k0 is pre-multiplied by 4 (the node stride of QuadNodes) so the
 * node offset of a cell is k0[r] + 4 L q + cell.
 */
export interface OctaveCycle {
  m: number;
  /** node offset advance per cycle, 4 L */
  stride: number;
  k0: Int32Array;
  w: Float64Array;
}

function gcd(a: number, b: number): number {
  while (b !== 0) {
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/**
 * The cycle of samples t0 + i step over an octave of period P. The fraction is (t - k P) / P, as
 * BlockNoise computes it (noise.ts), so for whole-hour samples the weights are the general
 * path's bit for bit.
 */
export function octaveCycle(periodHours: number, t0: number, step: number, kMin: number): OctaveCycle {
  const p = periodHours;
  if (!Number.isInteger(p) || !Number.isInteger(step)) throw new Error('octaveCycle needs whole-hour periods and steps');
  const m = p / gcd(step, p);
  const k0 = new Int32Array(m), w = new Float64Array(m);
  for (let r = 0; r < m; r++) {
    const t = t0 + r * step;
    const k = Math.floor(t / p);
    const s = (t - k * p) / p;
    k0[r] = (k - kMin) * 4;
    w[r] = s * s * (3 - 2 * s);
  }
  return { m, stride: ((m * step) / p) * 4, k0, w };
}

const weightTables = new Map<number, Float64Array>();

/**
 * The smoothstep weight of each whole hour u = 0 .. P-1 of an octave's node interval (period P
 * whole hours), s = u / P and w = s s (3 - 2 s): octaveCycle's weight of a sample u hours past its
 * node, the same bits (t - k P is the exact integer u). Two trailing zeros let a kernel read the
 * weights of hours u, u + 1 as one pair at the interval's last hour. One table per period, kept.
 */
export function octaveWeights(periodHours: number): Float64Array {
  const p = periodHours;
  if (!Number.isInteger(p) || p < 1) throw new Error('octaveWeights needs a whole-hour period');
  let w = weightTables.get(p);
  if (!w) {
    w = new Float64Array(p + 2);
    for (let u = 0; u < p; u++) {
      const s = u / p;
      w[u] = s * s * (3 - 2 * s);
    }
    weightTables.set(p, w);
  }
  return w;
}
