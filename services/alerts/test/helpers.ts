import request from 'supertest';
import { eventually, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';

const square = (lon: number, lat: number, size = 0.01) => [
  [lon, lat],
  [lon + size, lat],
  [lon + size, lat + size],
  [lon, lat + size],
  [lon, lat],
];

/** Creates a field in the agriculture area and waits until the alerts area's copy holds it. */
export async function createField(fleet: TestFleet, account: TestAccount, lon = -93.5, lat = 42): Promise<string> {
  const res = await request(fleet.app('agriculture'))
    .post('/fields')
    .set('Authorization', account.auth)
    .send({ description: 'North 40', type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [square(lon, lat)] }] });
  if (res.status !== 201) throw new Error(`field: ${res.status} ${JSON.stringify(res.body)}`);
  const id = (res.body as { id: string }).id;
  await copied(fleet, id);
  return id;
}

/** Creates an asset in the insight area and waits until the alerts area's copy holds it. */
export async function createAsset(fleet: TestFleet, account: TestAccount, lon = 5, lat = 52): Promise<string> {
  const res = await request(fleet.app('insight'))
    .post('/assets')
    .set('Authorization', account.auth)
    .send({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [square(lon, lat)] }, properties: { name: 'Orchard' } }],
    });
  if (res.status !== 201) throw new Error(`asset: ${res.status} ${JSON.stringify(res.body)}`);
  const id = (res.body as { id: string }).id;
  await copied(fleet, id);
  return id;
}

/** Waits until the alerts area's copy of a field or asset agrees with `deleted`. */
export async function copied(fleet: TestFleet, id: string, deleted = false): Promise<void> {
  await eventually(async () => {
    const row = await fleet.db.knex.withSchema('alerts').table('targets').where({ id }).first();
    expect(row?.deleted).toBe(deleted);
  }, 30_000);
}

export const rules = (fleet: TestFleet) => {
  const app = () => request(fleet.app('alerts'));
  return {
    create: (account: TestAccount, body: object) => app().post('/rules').set('Authorization', account.auth).send(body),
    replace: (account: TestAccount, id: string, body: object) => app().put(`/rules/${id}`).set('Authorization', account.auth).send(body),
    get: (account: TestAccount, path: string) => app().get(path).set('Authorization', account.auth),
    remove: (account: TestAccount, id: string) => app().delete(`/rules/${id}`).set('Authorization', account.auth),
  };
};

export async function countRules(fleet: TestFleet): Promise<number> {
  const row = await fleet.db.knex.withSchema('alerts').table('rules').count({ n: '*' }).first();
  return Number(row?.n);
}
