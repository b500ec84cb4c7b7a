import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { eventsService } from '../src/definition.js';

const t = useTestFleet([eventsService]);
const app = () => t.fleet.app('events');

describe('response headers', () => {
  it('every answer says nosniff, with or without credentials, success or problem', async () => {
    const answers = await Promise.all([
      request(app()).get('/healthz'),
      request(app()).get('/openapi.json'),
      request(app()).get('/events'),
      request(app()).get('/events').set('Authorization', t.alice.auth),
      request(app()).get('/nowhere').set('Authorization', t.alice.auth),
      request(app()).get('/events').set('Accept', 'text/html'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 200, 404, 406]);
    for (const res of answers) expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an authenticated answer is no-store, a success or a problem; a public one is not marked', async () => {
    const feed = await request(app()).get('/events').set('Authorization', t.alice.auth);
    expect(feed.headers['cache-control']).toBe('no-store');
    const missing = await request(app()).get('/events/00000000-0000-4000-8000-000000000000').set('Authorization', t.alice.auth);
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    const posted = await request(app())
      .post('/events')
      .set('Authorization', t.alice.auth)
      .send({ app: t.alice.handle, namespace: 'a/b', message: 'm' });
    expect(posted.status).toBe(200);
    expect(posted.headers['cache-control']).toBe('no-store');
    expect((await request(app()).get('/openapi.json')).headers['cache-control']).toBeUndefined();
  });
});
