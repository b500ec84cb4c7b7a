// Signed great-circle distance from each cell to the coast, by nearest-seed propagation.
//
// A cell is land when its land fraction is at least one half. For a land cell the distance
// is the great-circle distance from its centre to the nearest sea cell's centre, less half a
// cell (the coast lies between the two centres); sea cells get the same with the classes
// swapped and a minus sign. Nearest cells are found by passing each cell's nearest seed to
// its eight neighbours in alternating forward and backward raster sweeps until nothing
// changes (Danielsson's vector propagation), with longitude wrapping round the globe and
// distances compared as chords between unit vectors, which order like great-circle arcs.
import type { GridShape } from '../src/grid-file.js';

const EARTH_RADIUS_KM = 6371.0088; // IUGG mean radius

function unitVectors(shape: GridShape): { x: Float64Array; y: Float64Array; z: Float64Array } {
  const { nlon, nlat, west, north, step } = shape;
  const n = nlon * nlat;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const z = new Float64Array(n);
  for (let j = 0; j < nlat; j++) {
    const lat = ((north - (j + 0.5) * step) * Math.PI) / 180;
    for (let i = 0; i < nlon; i++) {
      const lon = ((west + (i + 0.5) * step) * Math.PI) / 180;
      const k = j * nlon + i;
      x[k] = Math.cos(lat) * Math.cos(lon);
      y[k] = Math.cos(lat) * Math.sin(lon);
      z[k] = Math.sin(lat);
    }
  }
  return { x, y, z };
}

/** Index of the nearest seed cell for every cell (-1 when there is no seed at all). */
function nearestSeeds(isSeed: Uint8Array, shape: GridShape, v: ReturnType<typeof unitVectors>): Int32Array {
  const { nlon, nlat } = shape;
  const nearest = new Int32Array(nlon * nlat).fill(-1);
  const best = new Float64Array(nlon * nlat).fill(Infinity);
  for (let k = 0; k < nearest.length; k++) {
    if (isSeed[k]) {
      nearest[k] = k;
      best[k] = 0;
    }
  }
  const consider = (k: number, from: number): boolean => {
    const s = nearest[from]!;
    if (s < 0 || s === nearest[k]) return false;
    const dx = v.x[k]! - v.x[s]!;
    const dy = v.y[k]! - v.y[s]!;
    const dz = v.z[k]! - v.z[s]!;
    const d = dx * dx + dy * dy + dz * dz;
    if (d < best[k]!) {
      best[k] = d;
      nearest[k] = s;
      return true;
    }
    return false;
  };
  const wrap = (i: number) => (i + nlon) % nlon;
  for (let sweep = 0; sweep < 64; sweep++) {
    let changed = 0;
    if (sweep % 2 === 0) {
      for (let j = 0; j < nlat; j++) {
        for (let i = 0; i < nlon; i++) {
          const k = j * nlon + i;
          if (consider(k, j * nlon + wrap(i - 1))) changed++;
          if (j > 0) {
            const up = (j - 1) * nlon;
            if (consider(k, up + wrap(i - 1))) changed++;
            if (consider(k, up + i)) changed++;
            if (consider(k, up + wrap(i + 1))) changed++;
          }
        }
        // A second pass along the row carries seeds across the seam at 180 degrees.
        for (let i = nlon - 1; i >= 0; i--) if (consider(j * nlon + i, j * nlon + wrap(i + 1))) changed++;
      }
    } else {
      for (let j = nlat - 1; j >= 0; j--) {
        for (let i = nlon - 1; i >= 0; i--) {
          const k = j * nlon + i;
          if (consider(k, j * nlon + wrap(i + 1))) changed++;
          if (j < nlat - 1) {
            const down = (j + 1) * nlon;
            if (consider(k, down + wrap(i - 1))) changed++;
            if (consider(k, down + i)) changed++;
            if (consider(k, down + wrap(i + 1))) changed++;
          }
        }
        for (let i = 0; i < nlon; i++) if (consider(j * nlon + i, j * nlon + wrap(i - 1))) changed++;
      }
    }
    if (changed === 0 && sweep > 0) break;
  }
  return nearest;
}

/** Signed distance to the coast in kilometres: positive on land, negative at sea. */
export function coastDistanceKm(landFraction: Float32Array, shape: GridShape): Float32Array {
  const n = shape.nlon * shape.nlat;
  const land = new Uint8Array(n);
  const sea = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    land[k] = landFraction[k]! >= 0.5 ? 1 : 0;
    sea[k] = 1 - land[k]!;
  }
  const v = unitVectors(shape);
  const toSea = nearestSeeds(sea, shape, v);
  const toLand = nearestSeeds(land, shape, v);
  const halfCellKm = ((shape.step * Math.PI) / 180) * EARTH_RADIUS_KM * 0.5;
  const out = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    const s = land[k] ? toSea[k]! : toLand[k]!;
    if (s < 0) {
      out[k] = land[k] ? 20000 : -20000;
      continue;
    }
    const dot = Math.min(1, Math.max(-1, v.x[k]! * v.x[s]! + v.y[k]! * v.y[s]! + v.z[k]! * v.z[s]!));
    const km = Math.max(0, Math.acos(dot) * EARTH_RADIUS_KM - halfCellKm);
    out[k] = land[k] ? km : -km;
  }
  return out;
}
