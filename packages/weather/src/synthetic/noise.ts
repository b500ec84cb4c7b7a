/**
 * Deterministic smooth noise for the synthetic world.
 *
 * Value noise (Perlin 1985's lattice idea with random values at the nodes instead of
 * gradients): a pseudo-random value in [-1, 1] at every node of a regular lattice in longitude,
 * latitude and time, blended between nodes with the smoothstep weight 3s^2 - 2s^3 so the field
 * and its first derivative are continuous. Node values come from integer hashing (Math.imul and
 * shifts only), so every process on every platform computes the same bits; Math.random is never
 * used. The longitude axis wraps at 360 degrees so the field is continuous across the antimeridian.
 *
 * Two nodes further apart than one lattice spacing share no node value, so the field is exactly
 * uncorrelated beyond ~2 spacings: the spacing is the correlation length.
 */

import { type CellList, cellCount } from './cells.js';

/** Bias-reduced 32-bit integer finaliser ("lowbias32", C. Wellons, hash-prospector 2020). */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * Value in [-1, 1) for an integer lattice node (x, y, z) of the noise layer `seed`: the XOR of
 * coordinates times large primes (Teschner et al. 2003, "Optimized Spatial Hashing for Collision
 * Detection of Deformable Objects") followed by a full-avalanche finaliser, so neighbouring nodes
 * get unrelated values at the cost of one mixing pass.
 */
function hash3(x: number, y: number, z: number, seed: number): number {
  const h = mix32(Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791) ^ seed);
  return h / 2147483648 - 1;
}

/** Uniform in [0, 1) from a sequence of integers (used for discrete draws such as storm counts). */
export function hashUnit(a: number, b: number, c: number, d: number): number {
  const h = mix32(mix32(mix32(mix32(a | 0) + (b | 0)) + (c | 0)) ^ Math.imul(d | 0, 0x9e3779b1));
  return h / 4294967296;
}

/** Cubic Hermite blend weight: 0 at s=0, 1 at s=1, zero slope at both ends. */
export function smoothstep(s: number): number {
  return s * s * (3 - 2 * s);
}

/**
 * Position of time t between time nodes k = floor(t / p) and k + 1, in [0, 1). Computed as
 * (t - k p) / p rather than t / p - k: t - k p is exact for any double t (|t - k p| < p), so the
 * weight of a whole hour repeats exactly from one period to the next.
 */
function timeFraction(t: number, k: number, p: number): number {
  return (t - k * p) / p;
}

/** One layer of space-time value noise. */
export interface NoiseOctave {
  /** lattice spacing in degrees; 360 / spacingDeg must be an integer so longitude wraps */
  spacingDeg: number;
  /** lattice spacing in hours; 0 for a static (time-independent) layer */
  periodHours: number;
  amplitude: number;
  /** distinct per layer so layers are independent */
  seed: number;
}

export interface NoiseField {
  octaves: readonly NoiseOctave[];
  /** every place gets the field's mean spread (spreadFactor) */
  evenSpread?: boolean;
}

/** Defines a field after checking that every octave wraps cleanly in longitude. */
export function noiseField(octaves: NoiseOctave[], options: { evenSpread?: boolean } = {}): NoiseField {
  for (const o of octaves) {
    const n = 360 / o.spacingDeg;
    if (Math.abs(n - Math.round(n)) > 1e-9) throw new Error(`noise spacing ${o.spacingDeg} does not divide 360`);
  }
  return options.evenSpread ? { octaves, evenSpread: true } : { octaves };
}

/**
 * Variance of a blend of two independent node values with weights 1 - w and w, relative to a
 * node value's: (1 - w)^2 + w^2 for the smoothstep weight w of the position s in [0, 1) between
 * two nodes: 1 at a node, 1/2 mid-way.
 */
function blendVariance(s: number): number {
  const w = smoothstep(s);
  return 1 - 2 * w + 2 * w * w;
}
/** blendVariance averaged over positions: 1 - 2 E[w] + 2 E[w^2] = 2 x 13/35, E[w] = 1/2 and E[w^2] = 13/35 for the smoothstep. */
const MEAN_BLEND_VARIANCE = 26 / 35;

/**
 * The factor that gives a field at a place its mean spread over places. Value noise blends node
 * values, so its variance is largest at the lattice nodes and falls to a quarter mid-way between
 * them in latitude and longitude: left as it is, a place's weather would depend on where it sits
 * on the lattice. That matters for fields read through a threshold (cloud thick enough to rain:
 * precipitation.ts), where it made the rain of neighbouring places differ by factors of several.
 * The factor is sqrt(mean variance / variance here) over the octaves, the time axis taken at its
 * mean (a place's statistics are over many time nodes).
 */
function spreadFactor(field: NoiseField, lat: number, lon: number): number {
  return spreadAt(field, positionVariances(field, [lat], 90), 0, positionVariances(field, [lon], 180), 0);
}

/** blendVariance of each coordinate's position between the nodes of each octave ([coordinate][octave]); origin 90 for latitudes, 180 for longitudes. */
function positionVariances(field: NoiseField, coords: ArrayLike<number>, origin: number): Float64Array {
  const octaves = field.octaves;
  const v = new Float64Array(coords.length * octaves.length);
  for (let i = 0, at = 0; i < coords.length; i++)
    for (const o of octaves) {
      const g = (coords[i]! + origin) / o.spacingDeg;
      v[at++] = blendVariance(g - Math.floor(g));
    }
  return v;
}

/** spreadFactor from the position variances of a place's row and column (positionVariances, from the offsets given). */
function spreadAt(field: NoiseField, rowVar: Float64Array, r: number, colVar: Float64Array, c: number): number {
  let here = 0,
    mean = 0;
  for (let k = 0; k < field.octaves.length; k++) {
    const o = field.octaves[k]!;
    const a2 = o.amplitude * o.amplitude;
    const t = o.periodHours > 0 ? MEAN_BLEND_VARIANCE : 1;
    here += a2 * t * rowVar[r + k]! * colVar[c + k]!;
    mean += a2 * t * MEAN_BLEND_VARIANCE * MEAN_BLEND_VARIANCE;
  }
  return Math.sqrt(mean / here);
}

/**
 * spreadFactor at every cell of a block (row-major, or the listed cells), the same numbers: the
 * position terms depend on the row or the column alone, so they are taken once per row and column.
 */
function spreadFactors(field: NoiseField, lats: ArrayLike<number>, lons: ArrayLike<number>, cells: CellList): Float32Array {
  const nO = field.octaves.length;
  const rowVar = positionVariances(field, lats, 90),
    colVar = positionVariances(field, lons, 180);
  const n = cellCount(lats.length, lons.length, cells);
  const out = new Float32Array(n);
  if (cells) for (let i = 0; i < n; i++) out[i] = spreadAt(field, rowVar, cells.row[i]! * nO, colVar, cells.col[i]! * nO);
  else
    for (let r = 0, i = 0; r < lats.length; r++)
      for (let c = 0; c < lons.length; c++, i++) out[i] = spreadAt(field, rowVar, r * nO, colVar, c * nO);
  return out;
}

/** The largest absolute value a field can take (sum of amplitudes). */
export function fieldBound(field: NoiseField): number {
  let s = 0;
  for (const o of field.octaves) s += Math.abs(o.amplitude);
  return s;
}

/**
 * Lattice coordinates of a list of cell coordinates along one axis: for each coordinate the two
 * surrounding nodes (as indices into `nodes`, the distinct lattice indices used) and the
 * smoothstep weight of the upper node.
 */
interface LatticeAxis {
  a: Int32Array;
  b: Int32Array;
  w: Float64Array;
  nodes: Int32Array;
}

function latticeAxis(coords: ArrayLike<number>, origin: number, spacing: number, wrap: number): LatticeAxis {
  const n = coords.length;
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  const w = new Float64Array(n);
  const index = new Map<number, number>();
  const nodes: number[] = [];
  const slot = (i: number): number => {
    const k = wrap > 0 ? ((i % wrap) + wrap) % wrap : i;
    let s = index.get(k);
    if (s === undefined) {
      s = nodes.length;
      nodes.push(k);
      index.set(k, s);
    }
    return s;
  };
  for (let i = 0; i < n; i++) {
    const x = ((coords[i] as number) - origin) / spacing;
    const i0 = Math.floor(x);
    a[i] = slot(i0);
    b[i] = slot(i0 + 1);
    w[i] = smoothstep(x - i0);
  }
  return { a, b, w, nodes: Int32Array.from(nodes) };
}

interface NodeSlot {
  k: number;
  values: Float32Array;
  used: number;
}

/** One octave laid over a block of cells: spatial weights plus a small cache of time nodes. */
class OctaveOverBlock {
  private readonly rows: LatticeAxis;
  private readonly cols: LatticeAxis;
  private readonly lattice: Float64Array;
  private readonly slots: NodeSlot[] = [];
  private clock = 0;
  /** [lattice row][column] node values blended across columns (fill) */
  private across: Float64Array | undefined;
  /**
   * Listed cells: per cell, where its four lattice nodes are in `lattice` ([cell][4]: lower row
   * west and east, upper row west and east) and its two weights ([cell][2]: across, up), found
   * once so that each time node costs four reads and the blend per cell.
   */
  private readonly listed: { at: Int32Array; w: Float64Array } | null;

  constructor(
    readonly octave: NoiseOctave,
    lats: ArrayLike<number>,
    lons: ArrayLike<number>,
    private readonly cells: CellList,
  ) {
    this.rows = latticeAxis(lats, -90, octave.spacingDeg, 0);
    this.cols = latticeAxis(lons, -180, octave.spacingDeg, Math.round(360 / octave.spacingDeg));
    this.lattice = new Float64Array(this.rows.nodes.length * this.cols.nodes.length);
    this.listed = cells ? listedLattice(this.rows, this.cols, cells) : null;
  }

  /** Values of the octave's time node k (unit amplitude) at every cell, cached (4 nodes). */
  node(k: number): Float32Array {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i] as NodeSlot;
      if (s.k === k) {
        s.used = ++this.clock;
        return s.values;
      }
    }
    let target: NodeSlot;
    const nCells = cellCount(this.rows.a.length, this.cols.a.length, this.cells);
    if (slots.length < 4) {
      target = { k, values: new Float32Array(nCells), used: 0 };
      slots.push(target);
    } else {
      target = slots[0] as NodeSlot;
      for (const s of slots) if (s.used < target.used) target = s;
      target.k = k;
    }
    target.used = ++this.clock;
    this.fill(k, target.values);
    return target.values;
  }

  /**
   * Values of time node k (unit amplitude) at every cell into out (no caching). Where the block
   * has more rows than the octave has lattice rows under them (time octaves are coarse: a few
   * lattice rows under a band of a tile), each lattice row is first blended across every column
   * once, and each cell blends two of those: the same sums in the same order as blending the four
   * nodes at each cell.
   */
  fill(k: number, out: Float32Array, offset = 0): void {
    const { rows, cols, lattice, octave } = this;
    const ny = rows.nodes.length;
    const nx = cols.nodes.length;
    for (let y = 0; y < ny; y++) {
      const iy = rows.nodes[y] as number;
      for (let x = 0; x < nx; x++) lattice[y * nx + x] = hash3(cols.nodes[x] as number, iy, k, octave.seed);
    }
    const nCols = cols.a.length;
    const nRows = rows.a.length;
    const ca = cols.a,
      cb = cols.b,
      cw = cols.w;
    const listed = this.listed;
    if (listed) {
      // Listed cells: each blends the four nodes around it, as a cell of a full block does.
      const { at, w } = listed;
      for (let k = 0, n = at.length / 4; k < n; k++) {
        const a00 = lattice[at[4 * k]!]!,
          a10 = lattice[at[4 * k + 2]!]!,
          wx = w[2 * k]!;
        const v0 = a00 + (lattice[at[4 * k + 1]!]! - a00) * wx;
        const v1 = a10 + (lattice[at[4 * k + 3]!]! - a10) * wx;
        out[offset + k] = v0 + (v1 - v0) * w[2 * k + 1]!;
      }
      return;
    }
    if (ny < nRows) {
      const across = (this.across ??= new Float64Array(ny * nCols));
      for (let y = 0; y < ny; y++) {
        const ly = y * nx,
          o = y * nCols;
        for (let c = 0; c < nCols; c++) {
          const xa = ca[c] as number,
            xb = cb[c] as number,
            wx = cw[c] as number;
          across[o + c] = (lattice[ly + xa] as number) + ((lattice[ly + xb] as number) - (lattice[ly + xa] as number)) * wx;
        }
      }
      for (let r = 0; r < nRows; r++) {
        const ra = (rows.a[r] as number) * nCols;
        const rb = (rows.b[r] as number) * nCols;
        const wy = rows.w[r] as number;
        const base = offset + r * nCols;
        for (let c = 0; c < nCols; c++) {
          const v0 = across[ra + c] as number;
          const v1 = across[rb + c] as number;
          out[base + c] = v0 + (v1 - v0) * wy;
        }
      }
      return;
    }
    for (let r = 0; r < nRows; r++) {
      const ra = (rows.a[r] as number) * nx;
      const rb = (rows.b[r] as number) * nx;
      const wy = rows.w[r] as number;
      const base = offset + r * nCols;
      for (let c = 0; c < nCols; c++) {
        const xa = ca[c] as number,
          xb = cb[c] as number,
          wx = cw[c] as number;
        const v0 = (lattice[ra + xa] as number) + ((lattice[ra + xb] as number) - (lattice[ra + xa] as number)) * wx;
        const v1 = (lattice[rb + xa] as number) + ((lattice[rb + xb] as number) - (lattice[rb + xa] as number)) * wx;
        out[base + c] = v0 + (v1 - v0) * wy;
      }
    }
  }
}

/** OctaveOverBlock's `listed`: each listed cell's four lattice nodes and two weights. */
function listedLattice(rows: LatticeAxis, cols: LatticeAxis, cells: NonNullable<CellList>): { at: Int32Array; w: Float64Array } {
  const nx = cols.nodes.length;
  const n = cells.row.length;
  const at = new Int32Array(4 * n),
    w = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const r = cells.row[k]!,
      c = cells.col[k]!;
    const ra = rows.a[r]! * nx,
      rb = rows.b[r]! * nx;
    at[4 * k] = ra + cols.a[c]!;
    at[4 * k + 1] = ra + cols.b[c]!;
    at[4 * k + 2] = rb + cols.a[c]!;
    at[4 * k + 3] = rb + cols.b[c]!;
    w[2 * k] = cols.w[c]!;
    w[2 * k + 1] = rows.w[r]!;
  }
  return { at, w };
}

/** Per column, the first and last of a series' steps (inclusive) its caller reads. */
export interface ColumnSteps {
  from: Int32Array;
  to: Int32Array;
}

/**
 * A noise field evaluated over a rectilinear block of cells (rows of latitudes x columns of
 * longitudes, row-major). Spatial weights are computed once; each time node is computed once per
 * cell and reused by every time step between it and the next node, so a time step costs one
 * blend per cell and octave.
 */
export class BlockNoise {
  private readonly octaves: OctaveOverBlock[];
  /** per cell, the field's spreadFactor (evenSpread fields), else null */
  private readonly spread: Float32Array | null;
  readonly nCells: number;
  readonly nCols: number;

  /** the block's cells: every row x column, or a list (cells.ts) */
  private readonly cells: CellList;

  constructor(field: NoiseField, lats: ArrayLike<number>, lons: ArrayLike<number>, cells: CellList = null) {
    this.octaves = field.octaves.map((o) => new OctaveOverBlock(o, lats, lons, cells));
    this.nCells = cellCount(lats.length, lons.length, cells);
    this.nCols = lons.length;
    this.cells = cells;
    this.spread = field.evenSpread ? spreadFactors(field, lats, lons, cells) : null;
  }

  /** Scales the first `steps` time steps of a [t][cell] array by the cells' spread factors (evenSpread fields). */
  private evenOut(out: Float32Array, steps: number): void {
    const f = this.spread;
    if (!f) return;
    const n = this.nCells;
    for (let t = 0; t < steps; t++) for (let i = 0, o = t * n; i < n; i++) out[o + i] = out[o + i]! * f[i]!;
  }

  /** out[cell] = scale * field(cell, tHours) (time ignored by static octaves). */
  at(tHours: number, out: Float32Array, scale = 1): Float32Array {
    out.fill(0);
    const n = this.nCells;
    // Read before the loops: code after a loop that was compiled while running (on-stack
    // replacement) before that code ever ran is dropped there, at every call (warm-up.ts).
    const even = this.spread !== null;
    for (const o of this.octaves) {
      const p = o.octave.periodHours;
      const amp = o.octave.amplitude * scale;
      if (p <= 0) {
        const v = o.node(0);
        for (let i = 0; i < n; i++) out[i] = (out[i] as number) + amp * (v[i] as number);
        continue;
      }
      const k = Math.floor(tHours / p);
      const w = smoothstep(timeFraction(tHours, k, p));
      const va = o.node(k);
      const vb = o.node(k + 1);
      for (let i = 0; i < n; i++) {
        const a = va[i] as number;
        out[i] = (out[i] as number) + amp * (a + ((vb[i] as number) - a) * w);
      }
    }
    if (even) this.evenOut(out, 1);
    return out;
  }

  /**
   * out[t][cell] = scale * field(cell, times[t][col]) for a series of per-column times that grow
   * with t: the form daily anchors need (few cells, many days). The time nodes a run of steps
   * spans are computed once, so each step costs one blend per cell and octave; runs are cut so
   * their nodes stay within about 4 MB. With `steps`, a column's time octaves are blended at its
   * steps from[c] .. to[c] only: its values at the others are not the field's (its caller does not
   * read them).
   */
  seriesAtColumnTimes(times: Float64Array, nT: number, out: Float32Array, scale = 1, steps: ColumnSteps | null = null): Float32Array {
    const { nCols, nCells, cells } = this;
    const nRows = cells ? 0 : nCells / nCols;
    const cellCol = cells ? cells.col : null;
    out.fill(0, 0, nT * nCells);
    const maxNodes = Math.max(4, Math.floor((1 << 20) / Math.max(1, nCells)));
    const colWeight = new Float64Array(nCols),
      colNode = new Int32Array(nCols);
    // Times grow with t, so the nodes of steps t .. t1-1 lie between the earliest column time of
    // step t and the latest of step t1-1.
    const earliest = (t: number): number => {
      let m = Infinity;
      for (let c = 0; c < nCols; c++) m = Math.min(m, times[t * nCols + c]!);
      return m;
    };
    const latest = (t: number): number => {
      let m = -Infinity;
      for (let c = 0; c < nCols; c++) m = Math.max(m, times[t * nCols + c]!);
      return m;
    };
    for (const o of this.octaves) {
      const p = o.octave.periodHours;
      const amp = o.octave.amplitude * scale;
      if (p <= 0) {
        const v = o.node(0);
        for (let t = 0; t < nT; t++) for (let i = 0; i < nCells; i++) out[t * nCells + i] = out[t * nCells + i]! + amp * v[i]!;
        continue;
      }
      for (let t = 0; t < nT;) {
        const kMin = Math.floor(earliest(t) / p);
        let t1 = nT;
        while (t1 - t > 1 && Math.floor(latest(t1 - 1) / p) + 1 - kMin + 1 > maxNodes) t1 = t + Math.ceil((t1 - t) / 2);
        const nK = Math.floor(latest(t1 - 1) / p) + 1 - kMin + 1;
        const nodes = nodeScratch(nK * nCells);
        for (let k = 0; k < nK; k++) o.fill(kMin + k, nodes, k * nCells);
        for (let tt = t; tt < t1; tt++) {
          const ob = tt * nCells;
          // Each column's node pair and weight (no node, -1, at a step the column skips), then the
          // cells row by row (in memory order).
          for (let c = 0; c < nCols; c++) {
            const tc = times[tt * nCols + c]!;
            const k = Math.floor(tc / p);
            colWeight[c] = smoothstep(timeFraction(tc, k, p));
            colNode[c] = steps && (tt < steps.from[c]! || tt > steps.to[c]!) ? -1 : (k - kMin) * nCells;
          }
          if (cellCol) blendListed(out, ob, nodes, nCells, amp, cellCol, colNode, colWeight);
          else blendRows(out, ob, nodes, nCells, amp, nRows, nCols, colNode, colWeight);
        }
        t = t1;
      }
    }
    this.evenOut(out, nT);
    return out;
  }
}

/**
 * The time nodes' values of seriesAtColumnTimes, kept between calls of a thread: a batch of
 * scattered points spans a few hundred nodes of 4,000 cells per octave, and a tile's bands call
 * it 16 times, so allocating them each time was a large share of the garbage collector's work.
 * Up to 8 MB is kept; a larger run allocates its own.
 */
let nodesKept = new Float32Array(0);
const NODES_KEPT_MAX = 2 << 20;

/** A Float32Array of `length` elements with unspecified contents, valid until the next call. */
function nodeScratch(length: number): Float32Array {
  if (length > NODES_KEPT_MAX) return new Float32Array(length);
  if (nodesKept.length < length) nodesKept = new Float32Array(length);
  return nodesKept.subarray(0, length);
}

/**
 * One step of seriesAtColumnTimes over listed cells: each blends its column's two time nodes
 * (blendInto), but where the column skips the step (its node marked -1). The loops over cells are
 * functions of their own so the engine compiles them early and alone, not with the whole series.
 */
function blendListed(
  out: Float32Array,
  ob: number,
  nodes: Float32Array,
  nCells: number,
  amp: number,
  cellCol: Int32Array,
  colNode: Int32Array,
  colWeight: Float64Array,
): void {
  for (let i = 0; i < nCells; i++) {
    const c = cellCol[i]!;
    const node = colNode[c]!;
    if (node >= 0) blendInto(out, ob, i, nodes, node, nCells, amp, colWeight[c]!);
  }
}

/** blendListed over every row x column, row-major. */
function blendRows(
  out: Float32Array,
  ob: number,
  nodes: Float32Array,
  nCells: number,
  amp: number,
  nRows: number,
  nCols: number,
  colNode: Int32Array,
  colWeight: Float64Array,
): void {
  for (let r = 0, i = 0; r < nRows; r++)
    for (let c = 0; c < nCols; c++, i++) {
      const node = colNode[c]!;
      if (node >= 0) blendInto(out, ob, i, nodes, node, nCells, amp, colWeight[c]!);
    }
}

/** out[ob + i] += amp x the blend of cell i's two time nodes (the one at node offset `node`, the next nCells on) with weight w. */
function blendInto(
  out: Float32Array,
  ob: number,
  i: number,
  nodes: Float32Array,
  node: number,
  nCells: number,
  amp: number,
  w: number,
): void {
  const na = node + i;
  const a = nodes[na]!;
  out[ob + i] = out[ob + i]! + amp * (a + (nodes[na + nCells]! - a) * w);
}

function planeAt(x0: number, x1: number, iy: number, k: number, seed: number, wx: number, wy: number): number {
  const a = hash3(x0, iy, k, seed),
    b = hash3(x1, iy, k, seed);
  const c = hash3(x0, iy + 1, k, seed),
    d = hash3(x1, iy + 1, k, seed);
  const v0 = a + (b - a) * wx,
    v1 = c + (d - c) * wx;
  return v0 + (v1 - v0) * wy;
}

/** The field at one point and time (for sparse uses such as severe-weather events). */
export function noiseAt(field: NoiseField, lat: number, lon: number, tHours: number): number {
  let sum = 0;
  for (const o of field.octaves) {
    const wrap = Math.round(360 / o.spacingDeg);
    const x = (lon + 180) / o.spacingDeg;
    const y = (lat + 90) / o.spacingDeg;
    const ix = Math.floor(x),
      iy = Math.floor(y);
    const wx = smoothstep(x - ix),
      wy = smoothstep(y - iy);
    const x0 = ((ix % wrap) + wrap) % wrap,
      x1 = (((ix + 1) % wrap) + wrap) % wrap;
    if (o.periodHours <= 0) {
      sum += o.amplitude * planeAt(x0, x1, iy, 0, o.seed, wx, wy);
    } else {
      const k = Math.floor(tHours / o.periodHours);
      const wt = smoothstep(timeFraction(tHours, k, o.periodHours));
      const p0 = planeAt(x0, x1, iy, k, o.seed, wx, wy),
        p1 = planeAt(x0, x1, iy, k + 1, o.seed, wx, wy);
      sum += o.amplitude * (p0 + (p1 - p0) * wt);
    }
  }
  return field.evenSpread ? sum * spreadFactor(field, lat, lon) : sum;
}
