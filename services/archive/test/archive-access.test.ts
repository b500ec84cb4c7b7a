import request from 'supertest';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { archiveService } from '../src/definition.js';
import { ArchiveUserStore } from '../src/store.js';
import { get, NOW, register, STORM_DAY, STORM_POINT } from './archive-client.js';

const t = useTestFleet([archiveService], { now: () => NOW });
const path = (type = 'hailsize') => `/v2/${type}/summary/${STORM_POINT}/${STORM_DAY}`;

describe('access by u, t and a registered address (docs/interface.md §11)', () => {
  it('a registered user from a registered address is answered', async () => {
    const alice = await register(t, 'alice');
    expect((await get(t, path(), alice)).status).toBe(200);
  });

  it('every refusal is 401 with one body, whatever was wrong', async () => {
    const alice = await register(t, 'alice');
    const elsewhere = await register(t, 'elsewhere', ['10.0.0.0/8', '2001:db8::/32']);
    const hailOnly = await register(t, 'hail-only', undefined, ['hailsize']);
    const revoked = await register(t, 'gone');
    await new ArchiveUserStore(t.fleet.db.knex).revoke('gone');
    const cases = {
      'no credentials': get(t, path()),
      'no token': get(t, path(), undefined, { u: 'alice' }),
      'unknown user': get(t, path(), { name: 'mallory', token: alice.token }),
      // the last character changed (a token may already end in A)
      'wrong token': get(t, path(), { name: 'alice', token: `${alice.token.slice(0, -1)}${alice.token.endsWith('A') ? 'B' : 'A'}` }),
      'another user’s token': get(t, path(), { name: 'alice', token: hailOnly.token }),
      'an address not registered': get(t, path(), elsewhere),
      'a type not registered': get(t, path('lightning'), hailOnly),
      'a revoked user': get(t, path(), revoked),
      // without trusted proxies the header is the caller's own claim, and is not believed
      'a forged X-Forwarded-For': get(t, path(), elsewhere).set('X-Forwarded-For', '10.1.2.3'),
    };
    const bodies = new Set<string>();
    for (const [name, pending] of Object.entries(cases)) {
      const res = await pending;
      expect([name, res.status]).toEqual([name, 401]);
      expect(res.headers['www-authenticate']).toMatch(/^ArchiveToken /);
      bodies.add(JSON.stringify(res.body));
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]!)).toEqual({
      apiVersion: expect.stringMatching(/^2\./),
      error: { code: 401, message: expect.any(String), errors: [{ reason: 'unauthorized', message: expect.any(String) }] },
    });
    // the type registered is answered
    expect((await get(t, path('hailsize'), hailOnly)).status).toBe(200);
  });

  it('a user revoked by another process (the CLI) is refused here within 2 s, though this process had it cached', async () => {
    const ada = await register(t, 'ada');
    expect((await get(t, path(), ada)).status).toBe(200);
    await new ArchiveUserStore(t.fleet.db.knex).revoke('ada');
    const revoked = Date.now();
    await eventually(async () => expect((await get(t, path(), ada)).status).toBe(401), 5_000, 50);
    expect(Date.now() - revoked).toBeLessThan(2_000);
  });

  it('registering again issues a new token and ends the old one', async () => {
    const first = await register(t, 'alice');
    const second = await register(t, 'alice');
    expect(second.token).not.toBe(first.token);
    expect((await get(t, path(), first)).status).toBe(401);
    expect((await get(t, path(), second)).status).toBe(200);
  });

  it('only a hash of the token is stored', async () => {
    const alice = await register(t, 'alice');
    const rows = await t.fleet.db.knex.withSchema('archive').table('users').select('*');
    expect(JSON.stringify(rows)).not.toContain(alice.token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('registration refuses bad ranges, names and types', async () => {
    const users = new ArchiveUserStore(t.fleet.db.knex);
    await expect(users.register({ name: 'x', ranges: ['300.1.1.1'] })).rejects.toThrow(/CIDR/);
    await expect(users.register({ name: 'x', ranges: [] })).rejects.toThrow(/at least one/);
    await expect(users.register({ name: 'a b', ranges: ['::1'] })).rejects.toThrow(/user name/);
    await expect(users.register({ name: 'x', ranges: ['::1'], types: ['snow'] })).rejects.toThrow(/unknown type snow/);
  });

  it('401 in the format asked for', async () => {
    const xml = await request(t.fleet.app('archive')).get(`${path()}.xml`).query({ u: 'nobody', t: 'x' });
    expect(xml.status).toBe(401);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.text).toMatch(/<error code="401"/);
    const kml = await request(t.fleet.app('archive'))
      .get(path())
      .set('Accept', 'application/vnd.google-earth.kml+xml')
      .query({ u: 'nobody', t: 'x' });
    expect(kml.status).toBe(401);
    expect(kml.text).toMatch(/<name>Error 401<\/name>/);
  });
});
