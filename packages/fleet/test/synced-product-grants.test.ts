import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { platformService } from '@fieldcast/platform';
import { productGrantsCommand } from '@fieldcast/platform/grants';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { eventually, type TestAccount, type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { SOURCES } from '@fieldcast/sync';
import { tilesService } from '@fieldcast/tiles';
import { transferService } from '@fieldcast/transfer';
import { createCatalog, forecastFrameId, lonLatToTileXY } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../sync/test/one-synced-run.js';
import { accountsCommand } from '../src/accounts.js';
import { productsCommand } from '../src/products.js';
import { UsageError } from '../src/usage-error.js';

/*
 * A synced source's product made from a restricted catalog product
 * (`gfs-0p25.dew-point-temperature`, docs/decisions/0315-synced-sources-as-products.md) is
 * granted with that catalog product: `fieldcast products grant --product dew-point-temperature`
 * opens it in the platform area and, through the grant's message, in the tiles area, as it opens
 * the synced transfer products over the same variable (docs/decisions/0397-transfer-products-follow-product-grants.md;
 * docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
 */
const H = 3_600_000;
const RUN = Date.UTC(2026, 11, 3, 0);
const RESTRICTED = 'dew-point-temperature';
const SYNCED = `gfs-0p25.${RESTRICTED}`;
const FRAME = forecastFrameId({ name: SYNCED }, RUN, RUN + H);
/** A transfer product over the restricted variable: the synced source gets one of its own (0340). */
const DEW_FILES = 'dew-point-hourly-netcdf';
const catalog = createCatalog({
  transferProducts: [
    {
      name: DEW_FILES,
      description: 'Hourly 2 m dewpoint temperature, one NetCDF file per day',
      format: 'NetCDF',
      variable: 'dew_point_temperature',
      cadenceMinutes: 1440,
    },
  ],
});
// A tile over the run's grid (45 to 46 N, 10 to 11.75 E).
const { x, y } = lonLatToTileXY(10.25, 45.5, 7);

const options: TestFleetOptions = { now: () => new Date(RUN + 6 * H), catalog };
let run: OneSyncedRun;
beforeAll(async () => {
  run = await oneSyncedRun(RUN, { now: () => RUN + 6 * H });
  options.weather = run.weather;
}, 60_000);
afterAll(() => run?.close());

const t = useTestFleet([platformService, tilesService, transferService], options);

const get = (area: string, account: TestAccount, path: string) => request(t.fleet.app(area)).get(path).set('Authorization', account.auth);

/** What the account reaches of the synced restricted product in each area. */
async function reached(account: TestAccount): Promise<Record<string, unknown>> {
  const transfer = (await get('transfer', account, '/products')).body as { name: string }[];
  return {
    platform: (await get('platform', account, `/products/${SYNCED}`)).status,
    frames: (await get('tiles', account, `/v2/products/${SYNCED}/frames.json?limit=2`)).status,
    tile: (await get('tiles', account, `/v2/frames/${FRAME}/tile/7/${Math.floor(x)}/${Math.floor(y)}.png`)).status,
    files: transfer.map((p) => p.name).filter((name) => name.endsWith(DEW_FILES)),
  };
}

const closed = { platform: 404, frames: 404, tile: 404, files: [] };
const open = { platform: 200, frames: 200, tile: 200, files: [DEW_FILES, `gfs-0p25.${DEW_FILES}`] };

async function products(...args: string[]): Promise<void> {
  await productGrantsCommand(
    args,
    {
      knex: t.fleet.db.knex,
      catalog,
      outbox: t.fleet.deps('platform').outbox!,
      identity: t.fleet.identity,
      syncedSources: Object.keys(SOURCES),
    },
    () => undefined,
  );
}

it('the grant of the catalog product opens its synced products in the platform and tiles areas, and its transfer products, to that account only', async () => {
  expect(await reached(t.alice)).toEqual(closed);
  await products('grant', '--account', t.alice.handle, '--product', RESTRICTED);
  await eventually(async () => expect(await reached(t.alice)).toEqual(open), 20_000);
  expect(await reached(t.bob)).toEqual(closed);
  await products('revoke', '--account', t.alice.handle, '--product', RESTRICTED);
  await eventually(async () => expect(await reached(t.alice)).toEqual(closed), 20_000);
}, 120_000);

describe('fieldcast products grant of a synced product’s name', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-synced-grants-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is refused with the catalog product to grant, whether or not the source was ever synced here', async () => {
    const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const printed: string[] = [];
    await accountsCommand(['create', '--name', 'Granted', '--json'], env, (line) => printed.push(line));
    const { applicationId } = JSON.parse(printed[0]!);
    for (const product of [SYNCED, `ecmwf-ifs-0p25.${RESTRICTED}`]) {
      const attempt = productsCommand(['grant', '--account', applicationId, '--product', product], env, () => undefined);
      await expect(attempt).rejects.toThrow(UsageError);
      await expect(attempt).rejects.toThrow(
        `product ${product} is made from ${RESTRICTED} and granted with it, as are the other synced sources' products made from it: fieldcast products grant --account ${applicationId} --product ${RESTRICTED}`,
      );
    }
    const listed: string[] = [];
    await productsCommand(['list', '--account', applicationId, '--json'], env, (line) => listed.push(line));
    expect(listed).toEqual(['[]']);
  }, 60_000);
});
