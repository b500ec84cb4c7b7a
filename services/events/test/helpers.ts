import request from 'supertest';
import type { TestAccount, TestFleet } from '@fieldcast/runtime/testing';

export const fieldBody = (description = 'f') => ({
  description,
  type: 'GeometryCollection',
  geometries: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0, 0.01],
          [0.01, 0.01],
          [0.01, 0],
          [0, 0],
        ],
      ],
    },
  ],
});

export interface Entry {
  id: string;
  app: string;
  message: string;
  origin: { namespace: string; id: string };
  tagged: { namespace: string; id: string }[];
  occurrenceTime: string;
}

export function client(fleet: TestFleet) {
  const events = () => request(fleet.app('events'));
  return {
    post: (account: TestAccount, body: object) => events().post('/events').set('Authorization', account.auth).send(body),
    get: (account: TestAccount, path: string) => events().get(path).set('Authorization', account.auth),
    async ids(account: TestAccount, path: string): Promise<string[]> {
      const res = await events().get(path).set('Authorization', account.auth);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as Entry[]).map((e) => e.id);
    },
    async createField(account: TestAccount, description = 'f'): Promise<string> {
      const res = await request(fleet.app('agriculture')).post('/fields').set('Authorization', account.auth).send(fieldBody(description));
      if (res.status !== 201) throw new Error(`field: ${res.status}`);
      return (res.body as { id: string }).id;
    },
  };
}

/** The stored event ids of an account's consumed events about one resource (to know consumption is done). */
export async function storedIds(fleet: TestFleet, originId: string): Promise<string[]> {
  const rows: { id: string }[] = await fleet.db.knex
    .withSchema('events')
    .table('events')
    .where({ origin_id: originId })
    .orderBy('seq')
    .select('id');
  return rows.map((r) => r.id);
}
