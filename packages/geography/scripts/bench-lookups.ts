// Time to decode the committed grid at first use, and nanoseconds per lookup:
//   tsx scripts/bench-lookups.ts
// Run it in a fresh process so the first-use figure includes reading and decoding the file.
import { performance } from 'node:perf_hooks';
import { earthGeography } from '../src/index.js';

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const g = earthGeography();
const loadCpu = process.cpuUsage(cpu0);
const loadMs = performance.now() - t0;

// Deterministic points spread over the globe (a 32-bit LCG), the same in every run.
const n = 1 << 20;
const lats = new Float64Array(n);
const lons = new Float64Array(n);
let seed = 12345;
const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
for (let i = 0; i < n; i++) {
  lats[i] = Math.asin(2 * next() - 1) * (180 / Math.PI);
  lons[i] = 360 * next() - 180;
}

// A tile's worth of points in one place (256 x 256 over 2 x 2 degrees around Ames, Iowa),
// the pattern of a map window or of a point series read again and again.
const windowLats = new Float64Array(n);
const windowLons = new Float64Array(n);
for (let i = 0; i < n; i++) {
  windowLats[i] = 41 + ((i >> 8) % 256) / 128;
  windowLons[i] = -94.6 + (i % 256) / 128;
}

function nsPerCall(label: string, call: (lat: number, lon: number) => number, la = lats, lo = lons): void {
  let sink = 0;
  for (let i = 0; i < n; i++) sink += call(la[i]!, lo[i]!); // warm-up
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    // CPU time rather than wall time: the machine is shared, and a time slice taken by
    // another process is not the lookup's cost.
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) sink += call(la[i]!, lo[i]!);
    const used = process.cpuUsage(start);
    runs.push(((used.user + used.system) * 1e3) / n);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label.padEnd(20)} ${runs[2]!.toFixed(1)} ns CPU a lookup (median of 5 runs of ${n}; checksum ${sink.toFixed(0)})`);
}

console.log(
  `first use (read + decode ${g.shape.nlon} x ${g.shape.nlat}): ${loadMs.toFixed(1)} ms wall, ${((loadCpu.user + loadCpu.system) / 1e3).toFixed(1)} ms CPU`,
);
nsPerCall('elevationAt', g.elevationAt);
nsPerCall('landFractionAt', g.landFractionAt);
nsPerCall('coastDistanceKm', g.coastDistanceKm);
nsPerCall('continentalityAt', g.continentalityAt);
nsPerCall('sampleAt (all four)', (lat, lon) => g.sampleAt(lat, lon).elevation);
console.log('the same over one 2 x 2 degree window:');
nsPerCall('elevationAt', g.elevationAt, windowLats, windowLons);
nsPerCall('sampleAt (all four)', (lat, lon) => g.sampleAt(lat, lon).elevation, windowLats, windowLons);
