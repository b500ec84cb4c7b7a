import express from 'express';
import request from 'supertest';
import { negotiate } from '../src/negotiate.js';

/*
 * The JSON areas' Accept negotiation (docs/decisions/0004-media-type-negotiation.md): each JSON
 * type takes its quality from the most specific range that names it (RFC 9110 section 12.5.1).
 */
const app = express()
  .use(negotiate('fieldcast'))
  .get('/', (_req, res) => {
    res.json({ ok: true });
  })
  .use((err: { message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(406).json({ detail: err.message });
  });

const VENDOR = 'application/vnd.fieldcast+json; version=1; charset=utf-8';

describe('negotiate', () => {
  it.each([
    [undefined, VENDOR],
    ['*/*', VENDOR],
    ['application/*', VENDOR],
    ['application/json', VENDOR],
    ['application/vnd.fieldcast+json', VENDOR],
    ['application/vnd.fieldcast+json; version=1', VENDOR],
    ['text/html, application/json;q=0.1', VENDOR],
    ['application/json;q=0, */*', VENDOR],
    ['application/vnd.fieldcast+json; version=2, application/json', VENDOR],
    // the vendor type refused by name, application/json taken: the answer is what was asked for
    ['application/vnd.fieldcast+json;q=0, application/json', 'application/json; charset=utf-8'],
    ['application/json; charset=UTF-8', VENDOR],
    // JSON is UTF-8 (RFC 8259 section 8.1): a range asking another charset takes nothing served
    ['application/json;charset=latin1, */*;q=0.5', VENDOR],
    // a weight outside RFC 9110 section 12.4.2's grammar is read as no weight, q=1
    // (docs/decisions/0525-a-malformed-weight-is-no-weight.md)
    ['application/json;q=abc', VENDOR],
    ['application/json;q=', VENDOR],
    ['application/json;q=2', VENDOR],
    ['text/html, application/json;q=high', VENDOR],
    ['application/vnd.fieldcast+json;q=0, application/json;q=0x1', 'application/json; charset=utf-8'],
    // extra decimals keep the weight's value
    ['application/vnd.fieldcast+json;q=0.0000, application/json;q=.5', 'application/json; charset=utf-8'],
  ])('serves %s as %s', async (accept, type) => {
    const req = request(app).get('/');
    const res = await (accept === undefined ? req : req.set('Accept', accept));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
  });

  it.each([
    'text/html',
    'application/vnd.fieldcast+json; version=2',
    'application/xml',
    // a more specific range refusing both JSON types outweighs the */* that would take them
    'application/*;q=0, */*',
    'application/json;q=0, application/vnd.fieldcast+json;q=0, */*',
    '*/*;q=0',
    'application/json;q=0.0000, application/vnd.fieldcast+json;q=0.',
  ])('refuses %s with 406 naming what it serves', async (accept) => {
    const res = await request(app).get('/').set('Accept', accept);
    expect(res.status).toBe(406);
    expect(res.body.detail).toBe(
      `Cannot produce ${accept}; this operation serves application/vnd.fieldcast+json; version=1 and application/json`,
    );
  });

  it('refuses JSON in another charset with 406 saying its answers are UTF-8', async () => {
    const res = await request(app).get('/').set('Accept', 'application/json;charset=iso-8859-1');
    expect([res.status, res.body.detail]).toEqual([
      406,
      'Cannot produce application/json;charset=iso-8859-1; this operation serves application/vnd.fieldcast+json; version=1 and application/json, each in UTF-8',
    ]);
  });
});
