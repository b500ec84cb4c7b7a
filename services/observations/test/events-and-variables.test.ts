import request from 'supertest';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { OBSERVATION_VARIABLES } from '@fieldcast/schemas';
import { observationsService } from '../src/definition.js';
import { publish, site } from './observation-sets-client.js';

const t = useTestFleet([observationsService]);
const app = () => t.fleet.app('observations');

const parsed = (event: unknown) => (typeof event === 'string' ? JSON.parse(event) : event);

describe('observation sets: publishing emits a resource event (docs/architecture.md §5)', () => {
  it('writes fieldcast.observation-set.published to the outbox with the owner and the summary, and relays it', async () => {
    const delivered: { topic: string; key: string; value: string }[] = [];
    const subscription = await t.fleet.transport.subscribe(
      `observations-test-${Date.now()}`,
      /^fieldcast\.observations\.sets$/,
      async (m) => {
        delivered.push({ topic: m.topic, key: m.key ?? '', value: m.value });
      },
    );
    try {
      const summary = (await publish(app(), t.alice, { sites: [site('a', ['2026-05-01T00:00:00Z'])], tags: { k: 'v' } })).body;
      await publish(app(), t.alice, { sites: [] }); // refused: no event
      const rows = await t.fleet.db.knex.withSchema('observations').table('outbox').orderBy('seq').select('topic', 'key', 'event');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ topic: 'fieldcast.observations.sets', key: summary.id });
      const event = parsed(rows[0]!.event);
      expect(event).toMatchObject({
        specversion: '1.0',
        source: '/observations',
        type: 'fieldcast.observation-set.published',
        subject: summary.id,
        time: summary.creationTime,
        data: { account: t.alice.id, resource: summary, related: [{ namespace: 'observations/sets', id: summary.id }] },
      });
      await eventually(() => expect(delivered.map((m) => JSON.parse(m.value).id)).toEqual([event.id]));
      expect(delivered[0]).toMatchObject({ topic: 'fieldcast.observations.sets', key: summary.id });
    } finally {
      await subscription.stop();
    }
  });
});

describe('observation sets: GET /observation-sets/variables', () => {
  it('lists the known name and unit pairs, the specification’s three first', async () => {
    const res = await request(app()).get('/observation-sets/variables').set('Authorization', t.alice.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OBSERVATION_VARIABLES);
    expect(res.body.slice(0, 3).map((v: { name: string; unit: string }) => `${v.name} ${v.unit}`)).toEqual([
      'liquidPrecipitationRate mm/h',
      'liquidPrecipitationAmount mm',
      'temperature celsius',
    ]);
    for (const name of ['relativeHumidity', 'windSpeed', 'solarRadiation', 'soilMoisture', 'soilTemperature'])
      expect(res.body.map((v: { name: string }) => v.name)).toContain(name);
    expect(new Set(res.body.map((v: { name: string }) => v.name)).size).toBe(res.body.length);
  });

  it('needs credentials', async () => {
    expect((await request(app()).get('/observation-sets/variables')).status).toBe(401);
  });

  it('is in the OpenAPI document with the three set operations', async () => {
    const doc = (await request(app()).get('/openapi.json')).body;
    expect(Object.keys(doc.paths).sort()).toEqual(['/observation-sets', '/observation-sets/variables', '/observation-sets/{id}']);
    expect(Object.keys(doc.paths['/observation-sets']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/observation-sets'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '422']));
    expect(doc.paths['/observation-sets'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['start', 'end', 'limit', 'before']);
  });
});
