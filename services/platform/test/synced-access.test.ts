import { PRODUCT_GRANTS_TOPIC } from '@fieldcast/schemas';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { forecastFrameId, productId, productRunId } from '@fieldcast/weather';
import { type OneSyncedRun, oneSyncedRun } from '../../../packages/sync/test/one-synced-run.js';
import { SOURCES } from '../../../packages/sync/src/index.js';
import { platformService } from '../src/definition.js';
import { GrantCommandError } from '../src/grants.js';
import { clock, get, grantsCli, H, names, now, RESTRICTED } from './helpers.js';

/*
 * A synced source's product made from a restricted catalog product is restricted too (0315), and
 * the grant of that catalog product opens it: `fieldcast products grant --product
 * dew-point-temperature` shows `gfs-0p25.dew-point-temperature`, its frames, forecasts and
 * datapoints to that account; the synced product's own name is refused by the command with the
 * name to grant (docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
 */
const RUN = Date.UTC(2026, 11, 3, 0);
const SYNCED = `gfs-0p25.${RESTRICTED}`;
const SYNCED_ID = productId(SYNCED);
const FORECAST = productRunId({ name: SYNCED }, RUN);
const FRAME = forecastFrameId({ name: SYNCED }, RUN, RUN + H);

const options: TestFleetOptions = { now };
let run: OneSyncedRun;

beforeAll(async () => {
  run = await oneSyncedRun(RUN, { now: () => clock.ms });
  options.weather = run.weather;
}, 60_000);
afterAll(() => run?.close());

const t = useTestFleet([platformService], options);

beforeEach(() => {
  clock.ms = RUN + 6 * H;
});

const cli = (...args: string[]) => grantsCli(t, Object.keys(SOURCES), ...args);

async function grantMessageCount(): Promise<number> {
  const [row] = await t.fleet.db.knex.withSchema('platform').table('outbox').where({ topic: PRODUCT_GRANTS_TOPIC }).count({ n: '*' });
  return Number(row!.n);
}

/** Every way to reach the synced restricted product in the platform area. */
const PATHS = [
  `/products/${SYNCED}`,
  `/products/${SYNCED_ID}`,
  `/products/${SYNCED}/frames`,
  `/products/${SYNCED_ID}/forecasts`,
  `/forecasts/${FORECAST}`,
  `/forecasts/${FORECAST}/frames`,
  `/frames/${FRAME}`,
  `/frames/${FRAME}/datapoint/45.5/10.25`,
];

async function statuses(account: typeof t.alice): Promise<[string, number][]> {
  const out: [string, number][] = [];
  for (const path of PATHS) out.push([path, (await get(t, account, path)).status]);
  return out;
}

const all = (status: number) => PATHS.map((path): [string, number] => [path, status]);

it('is restricted like its catalog product: absent from the list and 404 everywhere without a grant', async () => {
  const listed = names((await get(t, t.alice, '/products?source=gfs-0p25')).body);
  expect(listed).toContain('gfs-0p25.air-temperature');
  expect(listed).not.toContain(SYNCED);
  expect(await statuses(t.alice)).toEqual(all(404));
}, 60_000);

it('the grant of the catalog product opens it, to that account only, and its revocation closes it again', async () => {
  expect(await cli('grant', '--account', t.alice.handle, '--product', RESTRICTED)).toEqual([`granted ${RESTRICTED} to ${t.alice.handle}`]);
  expect(names((await get(t, t.alice, '/products?source=gfs-0p25')).body)).toContain(SYNCED);
  expect(await statuses(t.alice)).toEqual(all(200));
  expect((await get(t, t.alice, `/forecasts/${FORECAST}/frames`)).body.map((f: { id: string }) => f.id)).toContain(FRAME);
  const point = await get(t, t.alice, `/frames/${FRAME}/datapoint/45.5/10.25`);
  expect(typeof point.body.value).toBe('number');
  expect(names((await get(t, t.bob, '/products?source=gfs-0p25')).body)).not.toContain(SYNCED);
  expect(await statuses(t.bob)).toEqual(all(404));
  expect(await cli('list', '--account', t.alice.handle)).toEqual([RESTRICTED]);

  await cli('revoke', '--account', t.alice.handle, '--product', RESTRICTED);
  expect(await statuses(t.alice)).toEqual(all(404));
}, 60_000);

it.each([
  ['grant', SYNCED],
  ['grant', SYNCED_ID],
  ['revoke', SYNCED],
  // a source the sync knows, no run of which is synced yet
  ['grant', `ecmwf-ifs-0p25.${RESTRICTED}`],
])('%s of a synced product by %s is refused with the catalog product to grant, and changes nothing', async (sub, product) => {
  const attempt = cli(sub, '--account', t.alice.handle, '--product', product);
  await expect(attempt).rejects.toThrow(GrantCommandError);
  await expect(attempt).rejects.toThrow(`made from ${RESTRICTED}`);
  await expect(cli(sub, '--account', t.alice.handle, '--product', product)).rejects.toThrow(
    `fieldcast products ${sub} --account ${t.alice.handle} --product ${RESTRICTED}`,
  );
  expect(await cli('list', '--account', t.alice.handle)).toEqual([`account ${t.alice.handle} has no restricted products`]);
  expect(await grantMessageCount()).toBe(0);
});

it('a synced product made from a public catalog product is public', async () => {
  await expect(cli('grant', '--account', t.alice.handle, '--product', 'gfs-0p25.air-temperature')).rejects.toThrow(
    'product gfs-0p25.air-temperature is public: every account sees it',
  );
});
