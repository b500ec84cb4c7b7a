import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { embeddedBaseUrls, FieldcastApiError, FieldcastClient, type ModelClient } from '@fieldcast/client';
import { createServer } from 'node:net';
import { createLogger } from '@fieldcast/kit';
import { IdentityStore, listen, portOf, startServices } from '@fieldcast/runtime';
import { openTestDatabase, openTestTransport, type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, SyntheticSource } from '@fieldcast/weather';
import { modelSchemas } from '@fieldcast/schemas';
import { modelService } from '../src/definition.js';
import { grantRestricted, TestClock } from './helpers.js';

/*
 * The TypeScript client (packages/client) against the model service listening on a port in this
 * process: real HTTP, real fetch, no mocks.
 */
const clock = new TestClock(Date.parse('2026-05-01T10:00:00Z'));
const t = useTestFleet([modelService], { now: clock.now });
let server: Server;
let baseUrl: string;

// alice holds the grant of the restricted dewpoint product, so every variable is served to her (docs/decisions/0429-model-variables-follow-product-grants.md)
beforeEach(() => grantRestricted(t.fleet, t.alice, true));

beforeAll(async () => {
  server = await listen(t.fleet.app('model'), 0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const clientOf = (account: TestAccount, key = account.key): ModelClient =>
  new FieldcastClient({ applicationId: account.id, applicationKey: key, baseUrls: { model: `${baseUrl}/` } }).model;

describe('the model client: one method per operation, each returning the fetch Response', () => {
  it('reads models, runs, variables and time series', async () => {
    const model = clientOf(t.alice);
    const models = await model.listModels();
    expect(models).toBeInstanceOf(Response);
    expect(models.status).toBe(200);
    expect(models.headers.get('content-type')).toBe('application/vnd.fieldcast+json; version=1; charset=utf-8');
    const [first] = (await models.json()) as { id: string; name: string }[];
    expect(first!.name).toBe('synthetic-global');

    expect(((await (await model.getModel('synthetic-global')).json()) as { id: string }).id).toBe(first!.id);
    const variables = (await (await model.listModelVariables(first!.id)).json()) as { name: string }[];
    expect(variables.map((v) => v.name)).toContain('temperature');

    const latest = (await (await model.getLatestForecast('synthetic-global')).json()) as { id: string; initTime: string };
    expect(latest.initTime).toBe('2026-05-01T06:00:00.000Z');
    expect(await (await model.getForecast(latest.id)).json()).toEqual(latest);

    const runs = await model.listForecasts('synthetic-global', { start: new Date('2026-04-30T00:00:00Z'), limit: 2, sort: 'asc' });
    expect(((await runs.json()) as { initTime: string }[]).map((r) => r.initTime)).toEqual([
      '2026-04-30T00:00:00.000Z',
      '2026-04-30T06:00:00.000Z',
    ]);

    const forecastVariables = (await (await model.listForecastVariables(latest.id)).json()) as { id: string; name: string }[];
    expect(forecastVariables).toHaveLength(6);
    const dew = forecastVariables.find((v) => v.name === 'dewPoint')!;
    expect(((await (await model.getForecastVariable(dew.id)).json()) as { name: string }).name).toBe('dewPoint');

    const series = await model.getTimeSeries(latest.id, 'temperature', 42.0308, -93.6319, { start: '2026-05-01T12:00:00Z', limit: 3 });
    const body = (await series.json()) as { series: { validTime: string }[] };
    expect(body.series.map((p) => p.validTime)).toEqual([
      '2026-05-01T12:00:00.000Z',
      '2026-05-01T13:00:00.000Z',
      '2026-05-01T14:00:00.000Z',
    ]);

    const all = (await (await model.getLatestTimeSeries('synthetic-global', 42.0308, -93.6319, { limit: 1 })).json()) as {
      forecast: string;
      variables: Record<string, unknown>;
    };
    expect(all.forecast).toBe(`/forecasts/${latest.id}`);
    expect(Object.keys(all.variables)).toHaveLength(6);
  });

  it('returns error answers as Responses too', async () => {
    const res = await clientOf(t.alice).getModel('no-such-model');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { id: string }).id).toBe('model_does_not_exist');
  });

  it('percent-encodes path segments', async () => {
    const res = await clientOf(t.alice).getModel('a/b?c');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe('Model a/b?c does not exist');
  });
});

describe('typed helpers: bodies parsed with the shared schemas, problems thrown', () => {
  it('parses each body with its schema', async () => {
    const model = clientOf(t.alice).typed(modelSchemas);
    const models = await model.listModels();
    expect(models.map((m) => m.name)).toEqual(['synthetic-global', 'synthetic-rapid']);
    const latest = await model.getLatestForecast(models[1]!.id);
    expect(latest.status).toBe('COMPLETE');
    const series = await model.getTimeSeries(latest.id, 'windSpeed', 10, 20, { limit: 4 });
    expect(series.series).toHaveLength(4);
    expect(series.unit.label).toBe('m/s');
    const all = await model.getLatestTimeSeries('synthetic-rapid', 10, 20, { limit: 2 });
    expect(all.variables.temperature!.series).toHaveLength(2);
    expect((await model.listForecasts('synthetic-rapid', { limit: 3 })).map((r) => r.status)).toHaveLength(3);
    expect((await model.listModelVariables('synthetic-rapid')).length).toBeGreaterThan(0);
    expect((await model.getModel('synthetic-rapid')).id).toBe(models[1]!.id);
    expect((await model.getForecast(latest.id)).id).toBe(latest.id);
    const variables = await model.listForecastVariables(latest.id);
    expect((await model.getForecastVariable(variables[0]!.id)).validTimes).toHaveLength(49);
  });

  it('throws a FieldcastApiError with the problem body on 404 and 400', async () => {
    const model = clientOf(t.alice).typed(modelSchemas);
    const missing = await model.getModel('no-such-model').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(FieldcastApiError);
    expect((missing as FieldcastApiError).status).toBe(404);
    expect((missing as FieldcastApiError).problem).toMatchObject({
      id: 'model_does_not_exist',
      message: 'Model no-such-model does not exist',
    });

    const latest = await model.getLatestForecast('synthetic-global');
    const bad = await model.getTimeSeries(latest.id, 'temperature', 91, 0, { limit: 0 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(FieldcastApiError);
    expect((bad as FieldcastApiError).status).toBe(400);
    expect((bad as FieldcastApiError).problem.id).toBe('invalid_parameter');
    expect((bad as FieldcastApiError).problem.errors!.map((e) => e.path).sort()).toEqual(['latitude']);
  });

  it('reads a series as CSV from the service, and throws its problem when it refuses', async () => {
    const model = clientOf(t.alice).typed(modelSchemas);
    const latest = await model.getLatestForecast('synthetic-global');
    const json = await model.getTimeSeries(latest.id, 'temperature', 42.0308, -93.6319, { limit: 3 });
    const csv = await model.getTimeSeriesCsv(latest.id, 'temperature', 42.0308, -93.6319, { limit: 3 });
    const [header, ...rows] = csv.trimEnd().split('\r\n');
    expect(header).toMatch(/validTime/);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.split(',').find((f) => f.startsWith('20')))).toEqual(json.series.map((p) => p.validTime));
    const all = await model.getLatestTimeSeriesCsv('synthetic-global', 42.0308, -93.6319, { limit: 2 });
    expect(all.trimEnd().split('\r\n').length).toBeGreaterThan(2);
    const bad = await model.getTimeSeriesCsv(latest.id, 'temperature', 91, 0).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(FieldcastApiError);
    expect((bad as FieldcastApiError).problem.id).toBe('invalid_parameter');
  });

  it('throws on 401 for a wrong key', async () => {
    const err = await clientOf(t.alice, `${t.alice.key}x`)
      .typed(modelSchemas)
      .listModels()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FieldcastApiError);
    expect((err as FieldcastApiError).status).toBe(401);
    expect((err as FieldcastApiError).problem.id).toBe('unauthorized');
  });

  it('throws when a body does not match its schema', async () => {
    const model = clientOf(t.alice).typed({ ...modelSchemas, model: modelSchemas.forecast });
    await expect(model.getModel('synthetic-global')).rejects.toThrow(/initTime/);
  });
});

/** A free port p with p - 5 >= 1, so PORT_BASE = p - 5 puts the model area on it. */
async function freeModelPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('against a fleet started as `fieldcast start` starts it', () => {
  it('finds the model area through embeddedBaseUrls(PORT_BASE)', async () => {
    const definition = modelService;
    const portBase = (await freeModelPort()) - definition.port;
    const db = await openTestDatabase();
    const fleet = await startServices([{ definition, port: portOf(definition, portBase) }], {
      db,
      transport: await openTestTransport(),
      logger: createLogger({ level: 'silent' }),
      weather: new SyntheticSource(),
      catalog: createCatalog(),
      vendor: 'fieldcast',
      bodyLimit: '1mb',
      host: '127.0.0.1',
      shutdownTimeoutMs: 1000,
      background: false,
    });
    try {
      const { account, applicationKey } = await new IdentityStore(db.knex).createAccount({
        name: 'client',
        handle: `client-${process.pid}-${Date.now()}`,
      });
      const client = new FieldcastClient({ applicationId: account.id, applicationKey, baseUrls: embeddedBaseUrls(portBase) });
      const models = await client.model.typed(modelSchemas).listModels();
      expect(models.map((m) => m.name)).toEqual(['synthetic-global', 'synthetic-rapid']);
    } finally {
      await fleet.stop();
    }
  });
});

describe('base URLs', () => {
  it('embeddedBaseUrls gives the model area its port of the embedded fleet', () => {
    // every area's port against the registry: packages/fleet/test/layout.test.ts
    expect(embeddedBaseUrls(9000).model).toBe(`http://127.0.0.1:${portOf(modelService, 9000)}`);
    expect(embeddedBaseUrls().model).toBe('http://127.0.0.1:8085');
    expect(() => embeddedBaseUrls(70_000)).toThrow(RangeError);
  });

  it('a client without the area’s base URL says so when the area is used', () => {
    const client = new FieldcastClient({ applicationId: 'a', applicationKey: 'b', baseUrls: {} });
    expect(() => client.model).toThrow('no base URL for the model area: give baseUrls.model');
  });
});
