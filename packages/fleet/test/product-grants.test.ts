import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { eventsService } from '@fieldcast/events';
import { platformService } from '@fieldcast/platform';
import { productGrantsCommand } from '@fieldcast/platform/grants';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { eventually, reservePortBase, type TestAccount, useTestFleet, databaseTemplate } from '@fieldcast/runtime/testing';
import { tilesService } from '@fieldcast/tiles';
import { createCatalog, forecastBoundaryMs, frameId, lonLatToTileXY } from '@fieldcast/weather';
import { accountsCommand } from '../src/accounts.js';
import { productsCommand } from '../src/products.js';
import { startFleet } from '../src/start.js';

const PORT_BASE = reservePortBase();

// The platform's grants of restricted products reach the tiles area through the platform's
// outbox (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
const t = useTestFleet([platformService, tilesService, eventsService]);
const restricted = createCatalog()
  .products()
  .find((p) => p.access === 'restricted')!;
const frame = frameId(restricted, forecastBoundaryMs(Date.now()) - 2 * 3_600_000);
// A tile at the synthetic world's native zoom (7), over Iowa: drawn from one window read, in milliseconds.
const { x, y } = lonLatToTileXY(-93.6, 42.0, 7);
const tilePath = `/v2/frames/${frame}/tile/7/${Math.floor(x)}/${Math.floor(y)}.png`;

const tile = (account: TestAccount) => request(t.fleet.app('tiles')).get(tilePath).set('Authorization', account.auth);

async function products(...args: string[]): Promise<void> {
  const outbox = t.fleet.deps('platform').outbox!;
  await productGrantsCommand(
    args,
    { knex: t.fleet.db.knex, catalog: t.fleet.deps('platform').catalog!, outbox, identity: t.fleet.identity, syncedSources: [] },
    () => undefined,
  );
}

describe('restricted products in the tiles area, granted in the platform area', () => {
  it('a grant lets that account fetch the product’s tiles, another account still gets 404; a revocation brings 404 back', async () => {
    expect((await tile(t.alice)).status).toBe(404);
    await products('grant', '--account', t.alice.handle, '--product', restricted.name);
    await eventually(async () => expect((await tile(t.alice)).status).toBe(200), 20_000);
    const res = await tile(t.alice);
    expect(res.headers['content-type']).toBe('image/png');
    expect((await tile(t.bob)).status).toBe(404);
    await products('revoke', '--account', t.alice.handle, '--product', restricted.name);
    await eventually(async () => expect((await tile(t.alice)).status).toBe(404), 20_000);
  }, 120_000);

  it('grants are no events of the feeds: the events service neither stores nor dead-letters them', async () => {
    await products('grant', '--account', t.alice.handle, '--product', restricted.name);
    await eventually(async () => expect((await tile(t.alice)).status).toBe(200), 20_000);
    const feed = await request(t.fleet.app('events')).get('/events?limit=100').set('Authorization', t.alice.auth);
    expect(feed.status).toBe(200);
    expect(feed.body).toEqual([]);
    const stored = await t.fleet.db.knex.raw(
      'select (select count(*) from events.events) + (select count(*) from events.dead_letters) as n',
    );
    expect(Number(stored.rows[0].n)).toBe(0);
  }, 120_000);

  it('grants made before the tiles area kept its copy reach it when the platform republishes them', async () => {
    // stored without a message, as every grant made before grants were published
    await t.fleet.db.knex
      .withSchema('platform')
      .table('product_grants')
      .insert({ account_id: t.bob.id, product_id: restricted.id, product_name: restricted.name });
    await new Promise((r) => setTimeout(r, 500));
    expect((await tile(t.bob)).status).toBe(404);
    // the platform's grant-republishing task (a service package exports only its definition)
    await t.fleet.runBackground('platform', 'grant-republishing');
    await eventually(async () => expect((await tile(t.bob)).status).toBe(200), 20_000);
  }, 120_000);
});

describe('fieldcast products grant while the embedded fleet is stopped', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-grants-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('reaches the tiles area at the next start', async () => {
    const env = parseEnv(FleetEnv, {
      FIELDCAST_DATA_DIR: dataDir,
      PORT_BASE: String(PORT_BASE),
      LOG_LEVEL: 'silent',
    });
    const printed: string[] = [];
    await accountsCommand(['create', '--name', 'Granted', '--json'], env, (line) => printed.push(line));
    const { applicationId, applicationKey } = JSON.parse(printed[0]!);
    await productsCommand(['grant', '--account', applicationId, '--product', restricted.name], env, () => undefined);
    const started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
    try {
      const tiles = started.fleet.services.find((s) => s.area === 'tiles')!;
      const auth = `Basic ${Buffer.from(`${applicationId}:${applicationKey}`).toString('base64')}`;
      await eventually(
        async () => expect((await fetch(`${tiles.url}${tilePath}`, { headers: { Authorization: auth } })).status).toBe(200),
        30_000,
      );
      const demo = `Basic ${Buffer.from(`${started.demo!.applicationId}:${started.demo!.applicationKey}`).toString('base64')}`;
      expect((await fetch(`${tiles.url}${tilePath}`, { headers: { Authorization: demo } })).status).toBe(404);
    } finally {
      await started.fleet.stop();
    }
  }, 300_000);
});
