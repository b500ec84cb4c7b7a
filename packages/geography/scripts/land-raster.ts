// Land fraction of every grid cell from Natural Earth land polygons (world-atlas TopoJSON).
//
// The polygons are spherical (d3-geo conventions): a ring may cross the antimeridian, and
// Antarctica's ring runs once around the pole. Each ring is unwrapped to continuous
// longitudes, a ring that winds once around a pole is closed through that pole, and the
// ring is drawn again shifted by 360 degrees wherever it leaves [-180, 180]. The planar
// rings are then filled by the even-odd rule (which also cuts the holes) on a supersampled
// grid, and a cell's fraction is the share of its samples that fall on land.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GridShape } from '../src/grid-file.js';

type Topology = Parameters<typeof feature>[0];

type Ring = Array<[number, number]>;

export function loadNaturalEarthLand(file = 'world-atlas/land-10m.json'): Ring[] {
  const require = createRequire(import.meta.url);
  const topology = JSON.parse(readFileSync(require.resolve(file), 'utf8')) as Topology;
  const land = topology.objects['land'];
  if (!land) throw new Error(`${file} has no land object`);
  const collection = feature(topology, land as never) as GeoJSON.FeatureCollection | GeoJSON.Feature;
  const features = collection.type === 'FeatureCollection' ? collection.features : [collection];
  const rings: Ring[] = [];
  for (const f of features) {
    const g = f.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const polygon of polygons) for (const ring of polygon) rings.push(ring as Ring);
  }
  return rings;
}

/** Planar copies of a spherical ring that together cover [-180, 180] without the seam. */
export function planarRings(ring: Ring): Ring[] {
  const unwrapped: Ring = [];
  let shift = 0;
  let previous = ring[0]![0];
  let latSum = 0;
  for (const [lon, lat] of ring) {
    if (lon - previous > 180) shift -= 360;
    else if (previous - lon > 180) shift += 360;
    previous = lon;
    unwrapped.push([lon + shift, lat]);
    latSum += lat;
  }
  const first = unwrapped[0]!;
  const last = unwrapped[unwrapped.length - 1]!;
  if (Math.abs(last[0] - first[0]) > 180) {
    // The ring winds once around a pole: close it through that pole.
    const pole = latSum < 0 ? -90 : 90;
    unwrapped.push([last[0], pole], [first[0], pole]);
  }
  let min = Infinity;
  let max = -Infinity;
  for (const [lon] of unwrapped) {
    if (lon < min) min = lon;
    if (lon > max) max = lon;
  }
  const copies: Ring[] = [];
  for (const offset of [-720, -360, 0, 360, 720]) {
    if (max + offset > -180 && min + offset < 180) {
      copies.push(offset === 0 ? unwrapped : unwrapped.map(([lon, lat]) => [lon + offset, lat] as [number, number]));
    }
  }
  return copies;
}

/**
 * Land fraction per cell, 0..1, by even-odd fill of the rings sampled `samples` x `samples`
 * times per cell (sample centres, so a sample is land when its centre is inside).
 */
export function landFraction(rings: readonly Ring[], shape: GridShape, samples: number): Float32Array {
  const { nlon, nlat, west, north, step } = shape;
  const rows = nlat * samples;
  const cols = nlon * samples;
  const sub = step / samples;

  // Edges bucketed by the sample rows they cross: a row's crossings are then a short list.
  const x1: number[] = [];
  const y1: number[] = [];
  const x2: number[] = [];
  const y2: number[] = [];
  for (const ring of rings) {
    for (const planar of planarRings(ring)) {
      for (let i = 0; i < planar.length; i++) {
        const a = planar[i]!;
        const b = planar[(i + 1) % planar.length]!;
        if (a[1] === b[1]) continue;
        x1.push(a[0]);
        y1.push(a[1]);
        x2.push(b[0]);
        y2.push(b[1]);
      }
    }
  }
  const rowOf = (lat: number) => (north - lat) / sub - 0.5;
  const bucketCount = new Int32Array(rows + 1);
  const edgeRows = (k: number): [number, number] => {
    const ra = rowOf(y1[k]!);
    const rb = rowOf(y2[k]!);
    const lo = Math.max(0, Math.ceil(Math.min(ra, rb)));
    const hi = Math.min(rows - 1, Math.floor(Math.max(ra, rb)));
    return [lo, hi];
  };
  for (let k = 0; k < x1.length; k++) {
    const [lo, hi] = edgeRows(k);
    for (let r = lo; r <= hi; r++) bucketCount[r + 1]!++;
  }
  for (let r = 0; r < rows; r++) bucketCount[r + 1]! += bucketCount[r]!;
  const bucket = new Int32Array(bucketCount[rows]!);
  const fill = bucketCount.slice(0, rows);
  for (let k = 0; k < x1.length; k++) {
    const [lo, hi] = edgeRows(k);
    for (let r = lo; r <= hi; r++) bucket[fill[r]!++] = k;
  }

  const counts = new Uint16Array(nlon * nlat);
  const crossings = new Float64Array(4096);
  let xs = crossings;
  for (let r = 0; r < rows; r++) {
    const lat = north - (r + 0.5) * sub;
    let n = 0;
    const start = bucketCount[r]!;
    const end = bucketCount[r + 1]!;
    if (end - start > xs.length) xs = new Float64Array(2 * (end - start));
    for (let e = start; e < end; e++) {
      const k = bucket[e]!;
      const ya = y1[k]!;
      const yb = y2[k]!;
      // Half-open rule: a vertex exactly on the sample row counts once.
      if (ya > lat === yb > lat) continue;
      xs[n++] = x1[k]! + ((lat - ya) / (yb - ya)) * (x2[k]! - x1[k]!);
    }
    const sorted = xs.subarray(0, n).sort();
    const cellRow = Math.floor(r / samples) * nlon;
    for (let i = 0; i + 1 < n; i += 2) {
      // Sample columns whose centres lie in [a, b).
      const c0 = Math.max(0, Math.ceil((sorted[i]! - west) / sub - 0.5));
      const c1 = Math.min(cols - 1, Math.ceil((sorted[i + 1]! - west) / sub - 0.5) - 1);
      for (let c = c0; c <= c1; c++) counts[cellRow + Math.floor(c / samples)]!++;
    }
  }
  const fraction = new Float32Array(nlon * nlat);
  const perCell = samples * samples;
  for (let i = 0; i < fraction.length; i++) fraction[i] = counts[i]! / perCell;
  return fraction;
}
