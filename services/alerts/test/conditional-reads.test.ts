import { agricultureService } from '@fieldcast/agriculture';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { alertsService } from '../src/definition.js';
import { createField, rules } from './helpers.js';

// A read that carries an ETag evaluates If-Match (RFC 9110 sections 13.1.1 and 13.2.2): a stale
// tag is 412, not another version of the rule (docs/decisions/0504-reads-honour-if-match.md).

const t = useTestFleet([agricultureService, alertsService]);
const api = () => rules(t.fleet);

it('a rule read with a stale If-Match is 412; with its tag or * it is the rule', async () => {
  const field = await createField(t.fleet, t.alice);
  const created = await api().create(t.alice, {
    target: { type: 'field', id: field },
    condition: { kind: 'frost', threshold: 0, hours: 24 },
  });
  expect(created.status).toBe(201);
  const path = `/rules/${created.body.id}`;
  const stale = await api().get(t.alice, path).set('If-Match', '"not-the-tag"');
  expect(stale.status).toBe(412);
  expect(stale.body).toMatchObject({ status: 412, id: 'precondition_failed' });
  expect(
    (
      await api()
        .get(t.alice, path)
        .set('If-Match', created.headers.etag as string)
    ).status,
  ).toBe(200);
  expect((await api().get(t.alice, path).set('If-Match', '*')).status).toBe(200);
});

// A 304 carries the Vary its 200 would have carried (RFC 9110 section 15.4.5): a cache freshening
// its stored rule with the 304's fields (RFC 9111 section 4.3.4) keeps selecting by Accept-Encoding.
it('a rule read answered 304 says the same Vary as its 200', async () => {
  const field = await createField(t.fleet, t.alice);
  const created = await api().create(t.alice, {
    target: { type: 'field', id: field },
    condition: { kind: 'frost', threshold: 0, hours: 24 },
  });
  expect(created.status).toBe(201);
  const full = await api().get(t.alice, `/rules/${created.body.id}`).set('Accept-Encoding', 'gzip');
  expect(full.status).toBe(200);
  const notModified = await api()
    .get(t.alice, `/rules/${created.body.id}`)
    .set('Accept-Encoding', 'gzip')
    .set('If-None-Match', full.headers.etag as string);
  expect(notModified.status).toBe(304);
  expect(notModified.headers.vary).toBe(full.headers.vary);
});
