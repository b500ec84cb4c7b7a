import request from 'supertest';
import { z } from 'zod';
import { Api, createServiceApp, NotAllowedError, type Account, type Identity, type ServiceDefinition } from '../src/index.js';
import { testDeps } from './deps.js';

/** Operations that answer with a file (Operation.produces) and take a signed URL (Operation.credential). */
const ACCOUNT: Account = { id: '3b0f8c1e-2d4a-4c6b-8e9f-0a1b2c3d4e5f', name: 'Probe', handle: 'probe' };
const KEY = 'probe-key';
const identity: Identity = {
  cachedAccount: () => undefined,
  authenticate: async (id, key) => (id === ACCOUNT.id && key === KEY ? ACCOUNT : null),
  findAccount: async (ref) => (ref === ACCOUNT.id ? ACCOUNT : null),
};
const basic = `Basic ${Buffer.from(`${ACCOUNT.id}:${KEY}`).toString('base64')}`;

const files: ServiceDefinition = {
  area: 'files',
  title: 'Files',
  description: 'a service for testing file operations',
  needs: {},
  api: () =>
    new Api().op({
      method: 'get',
      path: '/files/{name}',
      summary: 'a file',
      params: z.object({ name: z.string() }),
      query: z.object({ token: z.string().optional() }),
      response: { status: 200, description: 'the file', mediaType: 'image/tiff' },
      produces: ['image/tiff'],
      credential: (req) => {
        const token = req.query.token;
        if (token === undefined) return undefined;
        if (token !== 'good') throw new NotAllowedError('signature_invalid', 'bad token');
        return ACCOUNT;
      },
      handle: ({ account, res }) => {
        res
          .status(200)
          .type('image/tiff')
          .send(Buffer.from(`for ${account.handle}`));
      },
    }),
};

const deps = testDeps(identity);
const app = createServiceApp(files, deps);

describe('an operation that answers with a file', () => {
  it('serves an Accept naming its media type, its major type or any type', async () => {
    for (const accept of ['image/tiff', 'image/*', '*/*', 'application/json']) {
      const res = await request(app).get('/files/a').set('Accept', accept).set('Authorization', basic);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/tiff');
    }
  });

  it('refuses an Accept naming neither the file nor JSON with 406 naming what it serves', async () => {
    const res = await request(app).get('/files/a').set('Accept', 'image/png').set('Authorization', basic);
    expect(res.status).toBe(406);
    expect(res.body.detail).toBe('Cannot produce image/png; this operation serves image/tiff');
  });

  it('refuses an Accept that refuses the file by q=0, however much it takes other types (RFC 9110 section 12.5.1)', async () => {
    for (const accept of ['image/tiff;q=0, */*', 'image/*;q=0, application/json', 'image/tiff;q=0, image/*']) {
      const res = await request(app).get('/files/a').set('Accept', accept).set('Authorization', basic);
      expect([accept, res.status, res.body.detail]).toEqual([accept, 406, `Cannot produce ${accept}; this operation serves image/tiff`]);
    }
    // a more specific range that takes it wins over a refused wider one
    const res = await request(app).get('/files/a').set('Accept', 'image/*;q=0, image/tiff').set('Authorization', basic);
    expect(res.status).toBe(200);
  });

  it('takes its own credential without HTTP Basic, and HTTP Basic without it', async () => {
    const text = (res: request.Response) => Buffer.from(res.body as Buffer).toString('utf8');
    expect(text(await request(app).get('/files/a?token=good'))).toBe('for probe');
    expect(text(await request(app).get('/files/a').set('Authorization', basic))).toBe('for probe');
    expect((await request(app).get('/files/a')).status).toBe(401);
  });

  it('refuses a bad credential with its own error, even with good HTTP Basic credentials', async () => {
    const res = await request(app).get('/files/a?token=bad').set('Authorization', basic);
    expect(res.status).toBe(403);
    expect(res.body.id).toBe('signature_invalid');
  });

  it('documents both ways in and the file media type', async () => {
    const doc = (await request(app).get('/openapi.json')).body;
    const op = doc.paths['/files/{name}'].get;
    expect(op.security).toEqual([{ basic: [] }, {}]);
    expect(Object.keys(op.responses['200'].content)).toEqual(['image/tiff']);
  });
});
