import { useTestFleet } from '@fieldcast/runtime/testing';
import { observationsService } from '../src/definition.js';
import { JSON_V1, publish, publishText, readBack, site } from './observation-sets-client.js';

const t = useTestFleet([observationsService]);
const app = () => t.fleet.app('observations');

/**
 * A set with every optional member: aggregated and instantaneous values, tags, times with
 * offsets, fractions and a comma, members in an order no schema lists them in.
 */
const everything = {
  tags: { station: 'Ames 2', 'network/kind': 'mesonet', empty: '', émoji: '☔ 🌧' },
  sites: [
    {
      observations: [
        {
          variables: [
            { value: 1.5, unit: 'mm', name: 'liquidPrecipitationAmount', interval: 3600, method: 'sum' },
            { unit: 'celsius', name: 'temperature', value: -3.25 },
            { name: 'temperature', method: 'minimum', interval: 86400, value: -12, unit: 'celsius' },
            { name: 'temperature', unit: 'celsius', value: 31.7, method: 'maximum', interval: 86400 },
          ],
          time: '2026-05-01T14:00:00+02:00',
        },
        { time: '2026-05-01T12:00:00.123456Z', variables: [{ name: 'relativeHumidity', unit: 'percent', value: 87 }] },
        { time: '2026-05-01T12:30:00,5-05:00', variables: [{ name: 'solarRadiation', unit: 'W/m2', value: 612.4 }] },
      ],
      elevation: -28,
      longitude: 180,
      id: 'ames-2',
      latitude: -90,
    },
    site('b', ['2026-04-30T23:59:59Z', '2026-05-02T00:00:00z', '2026-05-01t06:00:00+0530']),
  ],
};

describe('observation sets: read back exactly as submitted (spec 2.9, 4.8)', () => {
  it('publishes: 201 and the stored summary', async () => {
    const before = Date.now();
    const res = await publish(app(), t.alice, everything);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe(`${JSON_V1}; charset=utf-8`);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      creationTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      earliestObservationTime: '2026-04-30T23:59:59.000Z',
      latestObservationTime: '2026-05-02T00:00:00.000Z',
      tags: everything.tags,
    });
    expect(Object.keys(res.body)).toEqual(['id', 'creationTime', 'earliestObservationTime', 'latestObservationTime', 'tags']);
    expect(Date.parse(res.body.creationTime)).toBeGreaterThanOrEqual(before - 1);
    expect(Object.keys(res.body.tags)).toEqual(Object.keys(everything.tags));
  });

  it('gives back the same keys in the same order, the same numbers and the times as sent', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    const res = await readBack(app(), t.alice, id);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(`${JSON_V1}; charset=utf-8`);
    expect(res.body).toEqual(everything);
    // toEqual ignores key order; the text does not.
    expect(res.text).toBe(JSON.stringify(everything));
  });

  it('numbers keep their value whatever their spelling, and a set without tags comes back without them', async () => {
    const text =
      '{"sites":[{"id":"x","latitude":4.20e1,"longitude":-0.0,"elevation":1E3,"observations":[{"time":"2026-01-01T00:00:00Z","variables":[{"name":"windSpeed","unit":"m/s","value":0.10000000000000001},{"name":"windDirection","unit":"degrees","value":270.000}]}]}]}';
    const created = await publishText(app(), t.alice, text);
    expect(created.status).toBe(201);
    expect(created.body.tags).toEqual({});
    const res = await readBack(app(), t.alice, created.body.id);
    // The values, in JSON's shortest spelling (ECMA-262 Number::toString); -0.0 is the value 0.
    expect(res.text).toBe(JSON.stringify(JSON.parse(text)));
    expect(Object.keys(res.body)).toEqual(['sites']);
    const observed = res.body.sites[0];
    expect([observed.latitude, observed.longitude, observed.elevation, observed.observations[0].variables[0].value]).toEqual([
      42, 0, 1000, 0.1,
    ]);
  });

  it('keeps observations and sites in the order sent, not in time order', async () => {
    const body = { sites: [site('z', ['2026-03-03T00:00:00Z', '2026-01-01T00:00:00Z']), site('a', ['2026-02-02T00:00:00Z'])] };
    const { id } = (await publish(app(), t.alice, body)).body;
    const res = await readBack(app(), t.alice, id);
    expect(res.text).toBe(JSON.stringify(body));
  });

  it('another account’s set is 404, like an unknown one; an id that is no UUID is 400', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    const theirs = await readBack(app(), t.bob, id);
    expect(theirs.status).toBe(404);
    expect(theirs.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(theirs.body).toMatchObject({ id: 'observation_set_does_not_exist' });
    const unknown = await readBack(app(), t.alice, '3f1c2a70-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(theirs.body.message.replace(id, '3f1c2a70-0000-4000-8000-000000000000'));
    expect((await readBack(app(), t.alice, 'not-a-uuid')).status).toBe(400);
    expect((await readBack(app(), t.alice, id.toUpperCase())).status).toBe(200);
  });

  it('stores the document as json, which keeps the text as sent, not jsonb, which reorders it', async () => {
    const { id } = (await publish(app(), t.alice, everything)).body;
    const row = await t.fleet.db.knex.raw(
      `select pg_typeof(document)::text as type, document::text as text from observations.observation_sets where id = ?`,
      [id],
    );
    expect(row.rows[0]).toEqual({ type: 'json', text: JSON.stringify(everything) });
  });
});
