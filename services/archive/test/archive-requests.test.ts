import { useTestFleet } from '@fieldcast/runtime/testing';
import { archiveService } from '../src/definition.js';
import { get, NOW, register, STORM_DAY, STORM_POINT } from './archive-client.js';

const t = useTestFleet([archiveService], { now: () => NOW });

describe('archive requests (docs/interface.md §11)', () => {
  it('summary at a point: one item per event day with events, newest first, counts and maxima', async () => {
    const user = await register(t, 'alice');
    const res = await get(t, `/v2/hailsize/summary/${STORM_POINT}`, user, { radius: '20' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.apiVersion).toMatch(/^2\.\d+\.\d+$/);
    const { query, items, totalItems } = res.body.data;
    expect(query).toMatchObject({
      type: 'hailsize',
      request: 'summary',
      location: STORM_POINT,
      radius: 20,
      units: 'miles',
      end: NOW.toISOString(),
    });
    expect(query.begin).toBe(new Date(NOW.getTime() - 90 * 86_400_000).toISOString());
    expect(totalItems).toBe(items.length);
    expect(items.length).toBeGreaterThan(0);
    console.log(JSON.stringify(items.slice(0, 3)));
  });

  it('history: GeoJSON features', async () => {
    const user = await register(t, 'alice');
    const res = await get(t, `/v2/tornado/history/${STORM_POINT}/${STORM_DAY}`, user, { radius: '20' });
    console.log(res.status, JSON.stringify(res.body).slice(0, 1500));
    const k = await get(t, `/v2/tornado/history/${STORM_POINT}/${STORM_DAY}.kml`, user, { radius: '20' });
    console.log(k.status, k.headers['content-type'], k.text.slice(0, 3000));
    const x = await get(t, `/v2/stormreports/history/${STORM_POINT}/${STORM_DAY}.xml`, user, { radius: '20' });
    console.log(x.status, x.headers['content-type'], x.text.slice(0, 2000));
  });
});
