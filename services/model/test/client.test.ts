import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { embeddedBaseUrls, FieldcastApiError, FieldcastClient, type ModelClient, TypedModelClient } from '@fieldcast/client';
import request from 'supertest';
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

interface DocumentedParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
}
interface DocumentedOperation {
  parameters?: DocumentedParameter[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

describe('the OpenAPI document: every operation has a client call, sent as the document says', () => {
  it('walks every operation of /openapi.json', async () => {
    const doc = (await request(t.fleet.app('model')).get('/openapi.json')).body as {
      paths: Record<string, Record<string, DocumentedOperation>>;
    };
    const sent: { method: string; url: URL; headers: Headers }[] = [];
    const model = new FieldcastClient({
      applicationId: t.alice.id,
      applicationKey: t.alice.key,
      baseUrls: { model: baseUrl },
      fetch: (input, init) => {
        sent.push({ method: init?.method ?? 'GET', url: new URL(String(input)), headers: new Headers(init?.headers) });
        return fetch(input, init);
      },
    }).model;
    const latest = (await (await model.getLatestForecast('synthetic-global')).json()) as { id: string };
    const [variable] = (await (await model.listForecastVariables(latest.id)).json()) as { id: string }[];
    sent.length = 0;

    // Typed as a Record over the client's methods, so a method added without a call here fails to compile.
    const window = { start: '2026-05-01T00:00:00Z', end: '2026-05-02T00:00:00Z', limit: 2 };
    const calls: Record<Exclude<keyof ModelClient, 'typed'>, () => Promise<Response>> = {
      listModels: () => model.listModels(),
      getModel: () => model.getModel('synthetic-global'),
      listModelVariables: () => model.listModelVariables('synthetic-global'),
      getLatestForecast: () => model.getLatestForecast('synthetic-global'),
      getForecast: () => model.getForecast(latest.id),
      listForecasts: () => model.listForecasts('synthetic-global', { ...window, sort: 'asc' }),
      getForecastVariable: () => model.getForecastVariable(variable!.id),
      listForecastVariables: () => model.listForecastVariables(latest.id),
      getTimeSeries: () => model.getTimeSeries(latest.id, 'temperature', 42.0308, -93.6319, window),
      getTimeSeriesCsv: () => model.getTimeSeriesCsv(latest.id, 'temperature', 42.0308, -93.6319, window),
      getLatestTimeSeries: () => model.getLatestTimeSeries('synthetic-global', 42.0308, -93.6319, window),
      getLatestTimeSeriesCsv: () => model.getLatestTimeSeriesCsv('synthetic-global', 42.0308, -93.6319, window),
    };

    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        method: method.toUpperCase(),
        operation,
      })),
    );
    const queriesSent = new Map<string, Set<string>>();
    for (const [name, call] of Object.entries(calls)) {
      const response = await call();
      expect([name, response.status]).toEqual([name, 200]);
      const { method, url, headers } = sent.at(-1)!;
      const matches = documented.filter((d) => d.method === method && d.pattern.test(url.pathname));
      expect([name, matches.map((m) => m.key)]).toEqual([name, [expect.any(String)]]);
      const [{ key, operation }] = matches as [(typeof documented)[number]];
      const parameters = operation.parameters ?? [];
      const declared = (where: DocumentedParameter['in']) => parameters.filter((p) => p.in === where).map((p) => p.name);
      // Every query parameter the client sends is one the operation takes; every required header is sent.
      for (const query of url.searchParams.keys()) expect([name, declared('query')]).toEqual([name, expect.arrayContaining([query])]);
      for (const p of parameters.filter((p) => p.in === 'header' && p.required)) expect([name, headers.has(p.name)]).toEqual([name, true]);
      const accept = headers.get('accept')!;
      expect([name, Object.keys(operation.responses['200']!.content ?? {})]).toEqual([
        name,
        expect.arrayContaining([accept === 'text/csv' ? 'text/csv' : 'application/vnd.fieldcast+json; version=1']),
      ]);
      queriesSent.set(key, new Set([...(queriesSent.get(key) ?? []), ...url.searchParams.keys()]));
    }
    // Every operation has a call, and the client can send every query parameter it takes.
    expect([...queriesSent.keys()].sort()).toEqual(documented.map((d) => d.key).sort());
    for (const { key, operation } of documented) {
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect([key, [...queriesSent.get(key)!].sort()]).toEqual([key, query.sort()]);
    }
    // The typed helpers offer the same calls.
    for (const name of Object.keys(calls)) expect([name, typeof Reflect.get(TypedModelClient.prototype, name)]).toEqual([name, 'function']);
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
