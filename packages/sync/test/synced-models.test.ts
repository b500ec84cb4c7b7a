import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSyncedModels, syncedModelDef } from '../src/index.js';

/*
 * The synced sources as models (docs/decisions/0255-synced-runs-as-models.md) read from a registry
 * written before runs recorded their creation and retention remembered expired runs: its runs
 * are COMPLETE, created when synced, expiring FIELDCAST_SYNC_KEEP_DAYS' default after their start.
 */
const DAY = 86_400_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'synced-models-'));
  mkdirSync(join(dir, 'gfs-0p25'));
  writeFileSync(
    join(dir, 'gfs-0p25', 'registry.json'),
    JSON.stringify({
      source: 'gfs-0p25',
      runs: [{ run: '2026-12-03T06:00:00.000Z', path: 'runs/2026120306.zarr', steps: [0, 1, 2], syncedAt: '2026-12-03T10:00:00.000Z' }],
      analysis: 'analysis.zarr',
      retired: [],
    }),
  );
  // Not a source: ignored.
  mkdirSync(join(dir, 'other'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readSyncedModels', () => {
  it('reads a registry of the first sync format', async () => {
    const models = await readSyncedModels(dir);
    expect(models.map((m) => m.model.name)).toEqual(['gfs-0p25']);
    const run = Date.parse('2026-12-03T06:00:00Z');
    expect(models[0]!.runs).toEqual([
      {
        initMs: run,
        status: 'COMPLETE',
        createdMs: Date.parse('2026-12-03T10:00:00Z'),
        expirationMs: run + 400 * DAY,
        steps: [0, 1, 2],
        store: join(dir, 'gfs-0p25', 'runs/2026120306.zarr'),
      },
    ]);
  });

  it('lists no model where the sync dir does not exist', async () => {
    expect(await readSyncedModels(join(dir, 'missing'))).toEqual([]);
  });

  it("describes a source's model by its run stores' hourly variables, in the default models' names and units", () => {
    const m = syncedModelDef('ecmwf-ifs-0p25');
    expect(m.variables.map((v) => [v.name, v.unit.label])).toEqual([
      ['temperature', '°C'],
      ['dewPoint', '°C'],
      ['surfacePressure', 'kPa'],
      ['windSpeed', 'm/s'],
      ['shortwaveRadiation', 'W/m²'],
      ['precipitationRate', 'mm/h'],
    ]);
    expect(m.runEveryHours).toBe(6);
    expect(m.horizonHours).toBe(240);
  });
});
