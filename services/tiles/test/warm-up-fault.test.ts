import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestFleet } from '@fieldcast/runtime/testing';
import request from 'supertest';
import { climateLatticeFile } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';
import { FunctionSource } from './function-source.js';

/*
 * The tiles area's warm-up runs after the area listens (docs/decisions/0290-services-warm-up-once-they-listen.md).
 * A step of it that fails, here the climate lattice's file cut short
 * (docs/decisions/0089-climate-lattice-file.md), is logged and ends the warm-up: the process goes
 * on serving, and nothing is drawn ahead from a weather it could not prepare.
 */
const cacheBefore = process.env.FIELDCAST_CACHE_DIR;
let cacheDir: string;
beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'fieldcast-cache-'));
  // read when the lattice is first asked for its file, in this file's fresh module registry
  process.env.FIELDCAST_CACHE_DIR = cacheDir;
  writeFileSync(climateLatticeFile(), Buffer.alloc(1024));
});
afterAll(() => {
  process.env.FIELDCAST_CACHE_DIR = cacheBefore;
  rmSync(cacheDir, { recursive: true, force: true });
});

it('a warm-up that meets a lattice file cut short ends quietly, and the area still serves', async () => {
  const weather = new FunctionSource({ air_temperature: (lon, lat) => lat / 3 + lon / 20 }, 1);
  const fleet = await startTestFleet([tilesService], { background: true, weather });
  try {
    await expect(fleet.warm()).resolves.toBeUndefined();
    expect(weather.calls).toEqual({ window: 0, point: 0 });
    const { auth } = await fleet.account('viewer');
    const res = await request(fleet.app('tiles')).get('/v2/products/air-temperature/styles.json').set('Authorization', auth);
    expect(res.status).toBe(200);
  } finally {
    await fleet.close();
  }
}, 120_000);
