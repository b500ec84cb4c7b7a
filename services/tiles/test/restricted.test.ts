import request from 'supertest';
import { eventually, publishProductGrant, type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { PRODUCT_GRANTS_TOPIC } from '@fieldcast/schemas';
import { createCatalog, forecastBoundaryMs, frameId } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';
import { DefaultStyles } from '../src/domain/styles.js';
import { FunctionSource } from './function-source.js';
import { decodePng, pixelAt } from './png-decode.js';

// Restricted products in the tiles area (docs/decisions/0134-product-grants-published-to-the-tiles-area.md):
// the platform's grant messages are published here as the platform's relay would.
const weather = new FunctionSource({ dew_point_temperature: () => 10, air_temperature: () => 20 });
const t = useTestFleet([tilesService], { weather });
const app = () => t.fleet.app('tiles');
const catalog = createCatalog();
const restricted = catalog.products().find((p) => p.access === 'restricted')!;
const past = forecastBoundaryMs(Date.now()) - 2 * 3_600_000;
const frame = frameId(restricted, past);
const { id: defaultStyleId, name: defaultStyle } = new DefaultStyles(catalog).of(restricted)[0]!;
/** A frame of a public product: the restricted product's style named on its tile is another product's, or none. */
const publicFrame = frameId(catalog.product('air-temperature')!, past);

beforeAll(async () => {
  // Kafka: the topic exists before the platform's first message, as the platform creates it at start.
  await t.fleet.transport.ensureTopics([PRODUCT_GRANTS_TOPIC]);
});

/** Publishes a grant's state of the restricted product as the platform does. */
const publish = (account: TestAccount, granted: boolean, productId = restricted.id) =>
  publishProductGrant(t.fleet, account.id, productId, granted);

/** A valid style of the restricted product: green from 0 up. */
const ownStyle = (account: TestAccount) => ({
  name: `dew-${account.handle}`,
  description: '',
  layerName: restricted.styleableLayers[0]!.name,
  colorizers: [{ defaultColor: '#000000', defaultMode: 'discrete', stops: [{ value: 0, color: '#00ff00' }] }],
});

const get = (account: TestAccount, path: string) => request(app()).get(path).set('Authorization', account.auth);

const tile = (account: TestAccount) => get(account, `/v2/frames/${frame}/tile/1/1/0.png`);

/** Every way to reach the restricted product in the tiles area, and the status each answers an account that may see it. */
function paths(): [string, number][] {
  return [
    [`/v2/frames/${frame}/tile/1/1/0.png`, 200],
    [`/v2/frames/${frame}/tile/1/1/0.png?style=${defaultStyle}`, 200],
    [`/v2/products/${restricted.name}/frames.json?limit=2`, 200],
    [`/v2/products/${restricted.id}/styles.json`, 200],
    [`/v2/styles/${defaultStyleId}.json`, 200],
    [`/v2/frames/${publicFrame}/tile/1/1/0.png?style=${defaultStyle}`, 400],
    [`/v2/frames/${publicFrame}/tile/1/1/0.png?style=${defaultStyleId}`, 400],
  ];
}

async function statuses(account: TestAccount): Promise<[string, number][]> {
  const out: [string, number][] = [];
  for (const [path] of paths()) out.push([path, (await get(account, path)).status]);
  return out;
}

const notFound = () => paths().map(([path]): [string, number] => [path, 404]);

describe('restricted products (docs/decisions/0134-product-grants-published-to-the-tiles-area.md)', () => {
  it('are 404 to an account the platform has not granted them', async () => {
    expect(await statuses(t.alice)).toEqual(notFound());
    const created = await request(app())
      .post(`/v2/products/${restricted.name}/styles`)
      .set('Authorization', t.alice.auth)
      .send(ownStyle(t.alice));
    expect(created.status).toBe(404);
    expect(created.body.id).toBe('product_does_not_exist');
    const changed = await request(app())
      .put(`/v2/styles/${defaultStyleId}.json`)
      .set('Authorization', t.alice.auth)
      .send(ownStyle(t.alice));
    expect([changed.status, changed.body.id]).toEqual([404, 'style_does_not_exist']);
  }, 60_000);

  it('a grant serves them to that account only; a revocation hides them again', async () => {
    await publish(t.alice, true);
    await eventually(async () => expect((await tile(t.alice)).status).toBe(200));
    expect(await statuses(t.alice)).toEqual(paths());
    // a frame of the past with the default style, yet not immutable: the grant may be revoked
    expect((await tile(t.alice)).headers['cache-control']).toBe('private, max-age=300');
    // 10 °C on the default style's blue-to-red ramp: an opaque pixel
    const png = decodePng((await tile(t.alice).buffer(true)).body as Buffer);
    expect(pixelAt(png, 128, 128)[3]).toBe(255);
    const changed = await request(app()).delete(`/v2/styles/${defaultStyleId}.json`).set('Authorization', t.alice.auth);
    expect([changed.status, changed.body.id]).toEqual([403, 'style_is_default']);
    expect(await statuses(t.bob)).toEqual(notFound());

    // a message repeated (redelivery, the platform's republishing) changes nothing
    await publish(t.alice, true);
    await publish(t.alice, false);
    await eventually(async () => expect((await tile(t.alice)).status).toBe(404));
    expect(await statuses(t.alice)).toEqual(notFound());
  }, 60_000);

  it('hides an account’s own style of a product whose grant was revoked, and shows it again on a new grant', async () => {
    await publish(t.alice, true);
    await eventually(async () => expect((await tile(t.alice)).status).toBe(200));
    const style = ownStyle(t.alice);
    const created = await request(app()).post(`/v2/products/${restricted.name}/styles`).set('Authorization', t.alice.auth).send(style);
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const drawn = decodePng((await get(t.alice, `/v2/frames/${frame}/tile/1/1/0.png?style=${id}`).buffer(true)).body as Buffer);
    expect(pixelAt(drawn, 128, 128)).toEqual([0, 255, 0, 255]);

    await publish(t.alice, false);
    await eventually(async () => expect((await tile(t.alice)).status).toBe(404));
    expect((await get(t.alice, `/v2/styles/${id}.json`)).status).toBe(404);
    expect((await request(app()).put(`/v2/styles/${id}.json`).set('Authorization', t.alice.auth).send(style)).status).toBe(404);
    expect((await request(app()).delete(`/v2/styles/${id}.json`).set('Authorization', t.alice.auth)).status).toBe(404);

    await publish(t.alice, true);
    await eventually(async () => expect((await get(t.alice, `/v2/styles/${id}.json`)).status).toBe(200));
    expect((await request(app()).delete(`/v2/styles/${id}.json`).set('Authorization', t.alice.auth)).status).toBe(200);
  }, 60_000);

  it('passes over a message that is no grant state and applies the next', async () => {
    await t.fleet.transport.publish([{ topic: PRODUCT_GRANTS_TOPIC, key: 'x', event: { specversion: '1.0' } as never }]);
    await publish(t.alice, true, 'not a uuid');
    await publish(t.bob, true);
    await eventually(async () => expect((await tile(t.bob)).status).toBe(200));
    expect((await tile(t.alice)).status).toBe(404);
  }, 60_000);
});
