import { fieldcastId, FIELDCAST_NAMESPACE, uuidv5 } from '@fieldcast/ids';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { PRODUCT_GRANTS_TOPIC } from '@fieldcast/schemas';
import { GRANT_REPUBLISHING_TASK, platformService } from '../src/definition.js';
import { GrantCommandError } from '../src/grants.js';
import { clock, get, grantsCli, names, now, PUBLIC_PRODUCTS, RESTRICTED, START } from './helpers.js';

const t = useTestFleet([platformService], { now });

beforeEach(() => {
  clock.ms = START;
});

/** The grant messages in the platform's outbox, oldest first: key, type and what the message says. */
async function grantMessages(): Promise<{ key: string; type: string; account: string; resource: unknown }[]> {
  const rows: { key: string; event: string | { type: string; data: { account: string; resource: unknown } } }[] = await t.fleet.db.knex
    .withSchema('platform')
    .table('outbox')
    .where({ topic: PRODUCT_GRANTS_TOPIC })
    .orderBy('seq')
    .select('key', 'event');
  return rows.map((r) => {
    const event = typeof r.event === 'string' ? JSON.parse(r.event) : r.event;
    return { key: r.key, type: event.type, account: event.data.account, resource: event.data.resource };
  });
}

const cli = (...args: string[]) => grantsCli(t, [], ...args);

const productId = fieldcastId('product', RESTRICTED);
const frameId = uuidv5(`frame:${RESTRICTED}:2025-06-15T09:00:00Z`, FIELDCAST_NAMESPACE);
const runId = fieldcastId('product-forecast', RESTRICTED, '2025-06-15T06:00:00Z');
const forecastFrameId = fieldcastId('frame', RESTRICTED, '2025-06-15T06:00:00Z', '2025-06-16T00:00:00Z');

/** Every way to reach the restricted product, its frames and its forecasts. */
const PATHS = [
  `/products/${RESTRICTED}`,
  `/products/${productId}`,
  `/products/${RESTRICTED}/frames`,
  `/products/${productId}/forecasts`,
  `/forecasts/${runId}`,
  `/forecasts/${runId}/frames`,
  `/frames/${frameId}`,
  `/frames/${forecastFrameId}`,
  `/frames/${frameId}/datapoint/42/-93`,
];

describe('restricted products (spec 5; docs/decisions/0121-product-access.md)', () => {
  it('are invisible without a grant: absent from the list and 404 everywhere', async () => {
    expect(names((await get(t, t.alice, '/products')).body)).toEqual(PUBLIC_PRODUCTS);
    expect(names((await get(t, t.alice, '/products?contentType=humidity')).body)).toEqual(['relative-humidity']);
    for (const path of PATHS) {
      const res = await get(t, t.alice, path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body.id).toMatch(/^(product|frame|forecast)_does_not_exist$/);
    }
  }, 60_000);

  it('a grant shows the product, its frames, forecasts and datapoints to that account only', async () => {
    expect(await cli('grant', '--account', t.alice.handle, '--product', RESTRICTED)).toEqual([
      `granted ${RESTRICTED} to ${t.alice.handle}`,
    ]);
    const list = names((await get(t, t.alice, '/products')).body);
    expect(list).toContain(RESTRICTED);
    expect(names((await get(t, t.alice, '/products?contentType=humidity')).body)).toEqual(['relative-humidity', RESTRICTED]);
    for (const path of PATHS) expect([path, (await get(t, t.alice, path)).status]).toEqual([path, 200]);
    const point = await get(t, t.alice, `/frames/${frameId}/datapoint/42/-93`);
    expect(point.body.unit).toEqual({ description: 'degrees Celsius', label: '°C' });
    expect(typeof point.body.value).toBe('number');
    // bob, without the grant, still sees nothing of it anywhere
    expect(names((await get(t, t.bob, '/products')).body)).toEqual(PUBLIC_PRODUCTS);
    for (const path of PATHS) expect([path, (await get(t, t.bob, path)).status]).toEqual([path, 404]);
    expect(await cli('list', '--account', t.alice.id)).toEqual([RESTRICTED]);
    expect(await cli('list', '--account', t.bob.id, '--json')).toEqual(['[]']);
  }, 60_000);

  it('a revoked grant hides it again', async () => {
    await cli('grant', '--account', t.alice.id, '--product', productId);
    expect(await cli('grant', '--account', t.alice.id, '--product', RESTRICTED)).toEqual([`${t.alice.handle} already had ${RESTRICTED}`]);
    expect((await get(t, t.alice, `/products/${RESTRICTED}`)).status).toBe(200);
    expect(await cli('revoke', '--account', t.alice.handle, '--product', RESTRICTED)).toEqual([
      `revoked ${RESTRICTED} from ${t.alice.handle}`,
    ]);
    expect(await cli('revoke', '--account', t.alice.handle, '--product', RESTRICTED)).toEqual([
      `${t.alice.handle} did not have ${RESTRICTED}`,
    ]);
    // the command ran on the database this process serves from, so the remembered grants are dropped at once
    expect((await get(t, t.alice, `/products/${RESTRICTED}`)).status).toBe(404);
  });

  it.each([
    [['grant', '--account', 'nobody-here', '--product', RESTRICTED], /no account nobody-here/],
    [['grant', '--product', RESTRICTED], /usage/],
    [['grant', '--account', 'ACCOUNT'], /usage/],
    [['grant', '--account', 'ACCOUNT', '--product', 'no-such'], /no product no-such/],
    [['grant', '--account', 'ACCOUNT', '--product', 'air-temperature'], /air-temperature is public/],
    [['give', '--account', 'ACCOUNT', '--product', RESTRICTED], /usage/],
    [['grant', '--acount', 'ACCOUNT'], /usage/],
  ])('refuses %j', async (args, message) => {
    const filled = args.map((a) => (a === 'ACCOUNT' ? t.alice.id : a));
    await expect(cli(...filled)).rejects.toThrow(GrantCommandError);
    await expect(cli(...filled)).rejects.toThrow(message);
    expect(await cli('list', '--account', t.alice.id)).toEqual([`account ${t.alice.handle} has no restricted products`]);
    expect(await grantMessages()).toEqual([]);
  });
});

describe('grant changes are published (docs/decisions/0134-product-grants-published-to-the-tiles-area.md)', () => {
  const state = (account: string, granted: boolean) => ({
    key: fieldcastId('product-grant', account, productId),
    type: `fieldcast.product-grant.${granted ? 'granted' : 'revoked'}`,
    account,
    resource: { accountId: account, productId, granted },
  });

  it('a grant and a revocation each put the grant’s new state in the outbox; a command that changes nothing puts none', async () => {
    await cli('grant', '--account', t.alice.handle, '--product', RESTRICTED);
    await cli('grant', '--account', t.alice.handle, '--product', RESTRICTED);
    await cli('revoke', '--account', t.alice.handle, '--product', RESTRICTED);
    await cli('revoke', '--account', t.alice.handle, '--product', RESTRICTED);
    expect(await grantMessages()).toEqual([state(t.alice.id, true), state(t.alice.id, false)]);
  });

  it('the republishing task publishes every grant again, those made before grants were published too', async () => {
    await cli('grant', '--account', t.alice.handle, '--product', RESTRICTED);
    // a grant stored without its message, as every grant made before grants were published
    await t.fleet.db.knex
      .withSchema('platform')
      .table('product_grants')
      .insert({ account_id: t.bob.id, product_id: productId, product_name: RESTRICTED });
    expect(await grantMessages()).toEqual([state(t.alice.id, true)]);
    await t.fleet.runBackground('platform', GRANT_REPUBLISHING_TASK);
    const again = (await grantMessages()).slice(1);
    expect(again).toHaveLength(2);
    expect(again).toEqual(expect.arrayContaining([state(t.alice.id, true), state(t.bob.id, true)]));
  });
});
