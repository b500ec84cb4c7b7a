import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { productId } from '@fieldcast/weather';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { startFleet } from '../src/start.js';

const PORT_BASE = reservePortBase();

// The catalog's YAML override (docs/architecture.md §6, FIELDCAST_CATALOG) is loaded once by the
// fleet and handed to every area that declares the catalog (decision 0202): what it removes or
// patches is what the platform, tiles, model and transfer areas all serve.
const OVERRIDE = `
products:
  - name: air-temperature
    description: Air temperature, as this deployment describes it
remove:
  products: [dew-point-temperature]
  models: [synthetic-rapid]
  transferProducts: [surface-altitude-geotiff]
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fieldcast-catalog-'));
  writeFileSync(join(dir, 'catalog.yaml'), OVERRIDE);
  writeFileSync(join(dir, 'bad.yaml'), 'products:\n  - name: brand-new\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (catalog: string) =>
  parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: join(dir, 'data'),
    FIELDCAST_CATALOG: join(dir, catalog),
    FIELDCAST_BACKGROUND: 'off',
    PORT_BASE: String(PORT_BASE),
    LOG_LEVEL: 'silent',
  });

it('an override changes what every area that reads the catalog serves', async () => {
  const { fleet, demo } = await startFleet(env('catalog.yaml'), { databaseSeed: await databaseTemplate(), print: () => undefined });
  try {
    const headers = { Authorization: `Basic ${Buffer.from(`${demo!.applicationId}:${demo!.applicationKey}`).toString('base64')}` };
    const url = (area: string) => fleet.services.find((s) => s.area === area)!.url;
    const get = (area: string, path: string) => fetch(`${url(area)}${path}`, { headers });
    const names = async (area: string, path: string) => ((await (await get(area, path)).json()) as { name: string }[]).map((x) => x.name);

    // platform: the removed product is gone, the patched one described anew
    expect(await names('platform', '/products')).not.toContain('dew-point-temperature');
    expect((await (await get('platform', '/products/air-temperature')).json()).description).toBe(
      'Air temperature, as this deployment describes it',
    );
    // tiles: no styles for the removed product, the others still there
    expect((await get('tiles', `/v2/products/${productId('dew-point-temperature')}/styles.json`)).status).toBe(404);
    expect((await get('tiles', `/v2/products/${productId('air-temperature')}/styles.json`)).status).toBe(200);
    // model: the removed model is gone
    expect(await names('model', '/models')).toEqual(['synthetic-global']);
    // transfer: the removed transfer product is gone
    const transfer = await names('transfer', '/products');
    expect(transfer).not.toContain('surface-altitude-geotiff');
    expect(transfer).toContain('air-temperature-daily-max-geotiff');
  } finally {
    await fleet.stop();
  }
}, 120_000);

it('an override that fails validation stops start-up, naming the variable', async () => {
  await expect(startFleet(env('bad.yaml'), { databaseSeed: await databaseTemplate(), print: () => undefined })).rejects.toThrow(
    /FIELDCAST_CATALOG: .*brand-new/,
  );
});
