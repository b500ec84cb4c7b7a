import request from 'supertest';
import { Api, createServiceApp, metricsApp, type Identity, type ServiceDefinition } from '../src/index.js';
import { testDeps } from './deps.js';

/*
 * /metrics apart from the API (FIELDCAST_METRICS_PORT, docs/decisions/0449-metrics-on-a-port-of-their-own.md):
 * a NetworkPolicy filters ports, not paths, so figures kept off the public port are kept from
 * whoever reaches the Service or an ingress.
 */
const identity: Identity = { cachedAccount: () => undefined, authenticate: async () => null, findAccount: async () => null };
const probe: ServiceDefinition = {
  area: 'probe',
  title: 'Probe',
  description: 'a service for testing the kit',
  needs: {},
  api: () => new Api(),
};

describe('/metrics apart from the API', () => {
  const app = createServiceApp(probe, testDeps(identity, { metricsApart: true }));
  const metrics = metricsApp(app);

  it('the public app answers /metrics as any unknown path', async () => {
    const res = await request(app).get('/metrics');
    expect(res.status).toBe(404);
    expect(res.type).toBe('application/problem+json');
    expect(res.text).not.toContain('http_requests_total');
  });

  it("the metrics app serves the public app's figures, its requests counted", async () => {
    await request(app).get('/healthz');
    const res = await request(metrics).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/plain');
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200",service="probe"\} 1/);
  });

  it('the metrics app serves nothing else', async () => {
    for (const path of ['/healthz', '/openapi.json', '/']) expect([path, (await request(metrics).get(path)).status]).toEqual([path, 404]);
  });

  it('without it, the public app serves /metrics as before', async () => {
    const together = createServiceApp(probe, testDeps(identity));
    expect((await request(together).get('/metrics')).text).toContain('http_requests_total');
  });
});
