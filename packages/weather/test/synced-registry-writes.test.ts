import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSourceRegistry, writeSourceRegistry } from '../src/index.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'synced-registry-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const registry = (analysis: string) => ({ source: 'gfs-0p25', runs: [], analysis, retired: [], expired: [] });

test('two writers of one registry at once each write it whole, and one of them is what stays', async () => {
  // Two `serve sync` replicas on one shared volume may both be PID 1: a temporary file named by the
  // process alone was the same file for both, and one writer's rename took the other's away.
  await Promise.all([writeSourceRegistry(dir, registry('analysis-a.zarr')), writeSourceRegistry(dir, registry('analysis-b.zarr'))]);
  expect(['analysis-a.zarr', 'analysis-b.zarr']).toContain((await readSourceRegistry(dir, 'gfs-0p25')).analysis);
  expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
});
