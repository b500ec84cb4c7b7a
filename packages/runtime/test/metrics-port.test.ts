import { Api, createLogger } from '@fieldcast/kit';
import { FleetEnv, parseEnv } from '../src/env.js';
import { defineService } from '../src/needs.js';
import { type RunningFleet, startServices } from '../src/services.js';
import { openTestDatabase } from '../src/testing.js';

/*
 * FIELDCAST_METRICS_PORT (docs/decisions/0449-metrics-on-a-port-of-their-own.md): /metrics on a
 * listener of its own, so a NetworkPolicy can keep it from whoever reaches the API's port.
 */
const probe = defineService({
  area: 'probe',
  port: 1,
  title: 'Probe',
  description: 'nothing but its probes',
  needs: {},
  api: () => new Api(),
});

/** The probe served on ephemeral ports, with a database of its own (a fleet's stop closes it). */
const start = async (metricsPort?: number) =>
  startServices([{ definition: probe, port: 0, ...(metricsPort === undefined ? {} : { metricsPort }) }], {
    db: await openTestDatabase(),
    logger: createLogger({ level: 'silent' }),
    vendor: 'fieldcast',
    bodyLimit: '1mb',
    host: '127.0.0.1',
    shutdownTimeoutMs: 1_000,
  });

describe('FIELDCAST_METRICS_PORT', () => {
  it('is a port; unset, none', () => {
    expect(parseEnv(FleetEnv, {}).FIELDCAST_METRICS_PORT).toBeUndefined();
    expect(parseEnv(FleetEnv, { FIELDCAST_METRICS_PORT: '9090' }).FIELDCAST_METRICS_PORT).toBe(9090);
    for (const bad of ['metrics', '0', '65536'])
      expect(() => parseEnv(FleetEnv, { FIELDCAST_METRICS_PORT: bad })).toThrow(/FIELDCAST_METRICS_PORT/);
  });
});

describe('a service with a metrics port', () => {
  let fleet: RunningFleet;
  beforeAll(async () => (fleet = await start(0)));

  it('serves /metrics there, and answers it on the API port 404 as any unknown path', async () => {
    const [service] = fleet.services;
    expect((await fetch(`${service!.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${service!.url}/metrics`)).status).toBe(404);
    const scraped = await fetch(`${service!.metricsUrl!}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200",service="probe"\} 1/);
    expect((await fetch(`${service!.metricsUrl!}/healthz`)).status).toBe(404);
  });

  it('closes it when the service stops', async () => {
    const url = fleet.services[0]!.metricsUrl!;
    await fleet.stop();
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });
});

describe('a service without one', () => {
  it('serves /metrics on its API port, as before', async () => {
    const fleet = await start();
    try {
      const [service] = fleet.services;
      expect(service!.metricsUrl).toBeUndefined();
      expect((await fetch(`${service!.url}/metrics`)).status).toBe(200);
    } finally {
      await fleet.stop();
    }
  });
});
