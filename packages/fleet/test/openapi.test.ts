import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ArchiveUserStore } from '@fieldcast/archive/users';
import { startTestFleet, type TestAccount, type TestFleet } from '@fieldcast/runtime/testing';
import { SERVICES } from '../src/services.js';
import { listenOnLoopback, send as wire } from './fuzz/wire.js';

// Every service's /openapi.json must be a valid OpenAPI 3.1 document (users load it into
// generators and explorers), and must describe every route the service answers.
let fleet: TestFleet;
beforeAll(async () => {
  fleet = await startTestFleet(SERVICES);
});
afterAll(() => fleet.close());

it('the validator rejects a broken document (control)', async () => {
  const doc = (await request(fleet.app('agriculture')).get('/openapi.json')).body;
  const broken = { ...doc, paths: { '/fields': { get: { responses: { 200: { content: 'not an object' } } } } } };
  expect((await new Validator().validate(broken)).valid).toBe(false);
});

it('the answer check refuses an undocumented status, media type or member (control)', async () => {
  const app = fleet.app('agriculture');
  const doc = (await request(app).get('/openapi.json')).body as OpenApi;
  const account = await fleet.account('answers-control');
  const created = await request(app)
    .post('/fields')
    .set('Authorization', account.auth)
    .send(doc.components.schemas.FieldInput!.examples![0]!);
  const read = await send('agriculture', { op: 'GET /fields/{id}', url: `/fields/${(created.body as { id: string }).id}` }, account.auth);
  const conforms = answersAsDocumented(doc);
  const check = (answer: Partial<Answer>) => conforms('GET /fields/{id}', '/fields/x', { ...read, ...answer });
  expect(check({})).toEqual([]);
  expect(check({ status: 418 })).toEqual([expect.stringContaining('not a documented status')]);
  expect(check({ type: 'text/html' })).toEqual([expect.stringContaining('none of application/vnd.fieldcast+json; version=1')]);
  const extra = JSON.stringify({ ...(JSON.parse(read.text) as object), undocumented: 1 });
  expect(check({ text: extra })).toEqual([expect.stringContaining('schema refuses')]);
  // an object the document leaves open is read closed, as a generated client reads it
  expect(closed({ type: 'object', properties: { a: { type: 'object', properties: {} } } })).toEqual({
    type: 'object',
    properties: { a: { type: 'object', properties: {}, unevaluatedProperties: false } },
    unevaluatedProperties: false,
  });
});

/** The repository's root: where the Redocly CLI is installed and its config (redocly.yaml) lies. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

it('Redocly’s recommended rules (redocly.yaml) find no error or warning in any area’s document', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldcast-openapi-'));
  try {
    const files: string[] = [];
    for (const { area } of SERVICES) {
      const file = join(dir, `${area}.json`);
      writeFileSync(file, JSON.stringify((await request(fleet.app(area)).get('/openapi.json')).body));
      files.push(file);
    }
    const lint = spawnSync(
      join(ROOT, 'node_modules/.bin/redocly'),
      ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish', '--max-problems', '10000', ...files],
      {
        encoding: 'utf8',
        cwd: ROOT,
      },
    );
    const problems = `${lint.stdout}\n${lint.stderr}`
      .split('\n')
      .filter((line) => /\b(error|warning)\b/.test(line) && !/Node\.js/.test(line));
    expect(problems).toEqual([]);
    expect(lint.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

it('the archive’s document describes its answer to a path that is not valid percent-encoding, or holds a byte that must be percent-encoded', async () => {
  const doc = (await request(fleet.app('archive')).get('/openapi.json')).body as OpenApi;
  const conforms = answersAsDocumented(doc);
  const server = await listenOnLoopback(fleet.app('archive'));
  const faults: string[] = [];
  try {
    for (const [op, path] of [
      ['GET /v2/hailsize/{request}/{location}', '/v2/hailsize/summary/%FF'],
      ['GET /v2/hailsize/{request}/{location}', '/v2/hailsize/summary/%zz.xml'],
      ['GET /v2/hailsize/{request}/{location}/{date}', '/v2/hailsize/summary/+42.0308-093.6319/%C3%28'],
      // bytes a path must percent-encode, sent raw: Node's HTTP parser refuses them before any route
      // (RFC 9112 section 3.2), as problem+json (docs/decisions/0433-parser-refusals-documented-as-problem-json.md)
      ['GET /v2/hailsize/{request}/{location}', '/v2/hailsize/summary/\u00ff'],
      ['GET /v2/hailsize/{request}/{location}', '/v2/hailsize/summary/+42.0308\u0080-093.6319.kml'],
    ] as const) {
      const res = await wire(server.port, { method: 'GET', path, headers: {} });
      const answer = { status: res.status, type: String(res.headers['content-type'] ?? ''), text: res.text };
      if (answer.status !== 400) faults.push(`${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
      faults.push(...conforms(op, path, answer));
    }
  } finally {
    await server.close();
  }
  expect(faults).toEqual([]);
});

describe.each(SERVICES.map((s) => s.area))('%s /openapi.json', (area) => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has no dangling $ref', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body;
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(Object.keys(doc.components.schemas)).toContain(ref);
  });

  it('accepts every documented request body example as it stands', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body as OpenApi & {
      components: { schemas: Record<string, { examples?: unknown[] }> };
    };
    const account = await fleet.account('examples');
    for (const [path, methods] of Object.entries(doc.paths)) {
      // operations on an existing resource need its id first; their bodies are the create bodies
      if (path.includes('{')) continue;
      for (const [method, op] of Object.entries(methods)) {
        const ref = op.requestBody?.content['application/json']?.schema.$ref;
        const examples = ref ? (doc.components.schemas[ref.replace('#/components/schemas/', '')]?.examples ?? []) : [];
        for (const example of examples) {
          const res = await request(fleet.app(area))
            [method as 'post' | 'put'](path)
            .set('Authorization', account.auth)
            .send(example as object);
          expect({ op: `${method.toUpperCase()} ${path}`, status: res.status, body: res.status < 300 ? null : res.body }).toEqual({
            op: `${method.toUpperCase()} ${path}`,
            status: expect.any(Number),
            body: null,
          });
        }
      }
    }
  });

  it('describes what it answers: each operation’s representative requests, without credentials and with a refused Accept, are answered with a documented status, media type and body', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body as OpenApi;
    const account = await fleet.account(`answers-${area}`);
    const samples = await samplesOf(area, doc, account);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations.filter((op) => !samples.some((s) => s.op === op))).toEqual([]);
    const conforms = answersAsDocumented(doc);
    const faults: string[] = [];
    for (const sample of samples) {
      const { op, url } = sample;
      const answer = await send(area, sample, account.auth);
      if (answer.status >= 300 && answer.status !== sample.also) faults.push(`${op} ${url}: ${answer.status} ${answer.text.slice(0, 300)}`);
      faults.push(...conforms(op, url, answer));
      // every operation's refusals at the door, as a generated client reads them
      const anonymous = await send(area, { ...sample, archive: undefined }, undefined);
      faults.push(...conforms(op, `${url} (no credentials: ${anonymous.status})`, anonymous));
      const refused = await send(area, { ...sample, accept: 'image/gif' }, account.auth);
      faults.push(...conforms(op, `${url} (Accept: image/gif: ${refused.status})`, refused));
      // a body the document says is not required may be left out (OpenAPI 3.1 section 4.8.13), as a generated client does
      if (sample.body !== undefined && !sample.accept) {
        const [method, path] = op.split(' ') as [string, string];
        const required = doc.paths[path]![method.toLowerCase()]!.requestBody!.required !== false;
        const bare = await send(area, { ...sample, body: undefined }, account.auth);
        if (bare.status < 300 === required)
          faults.push(
            `${op} ${url} without a body answered ${bare.status}, but the document says the body is ${required ? '' : 'not '}required`,
          );
        faults.push(...conforms(op, `${url} (no body: ${bare.status})`, bare));
      }
    }
    expect(faults).toEqual([]);
  }, 120_000);

  it('answers a create retried under its Idempotency-Key with the first answer, creating nothing more (docs/decisions/0434)', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body as OpenApi;
    const account = await fleet.account(`keys-${area}`);
    const keyed = (op: string) => {
      const [method, path] = op.split(' ') as [string, string];
      return doc.paths[path]![method.toLowerCase()]!.parameters?.some((p) => p.name === 'Idempotency-Key') === true;
    };
    const creates = (await samplesOf(area, doc, account)).filter((s) => !s.accept && keyed(s.op));
    const answers: unknown[] = [];
    for (const sample of creates) {
      // a name of its own: the other tests' samples may hold the sample's
      const body =
        sample.body !== null && typeof sample.body === 'object' && 'name' in sample.body
          ? { ...sample.body, name: `keyed-${randomUUID()}` }
          : sample.body;
      const headers = { 'Idempotency-Key': `"${randomUUID()}"` };
      const [first, again] = [
        await send(area, { ...sample, body }, account.auth, headers),
        await send(area, { ...sample, body }, account.auth, headers),
      ];
      answers.push({ op: sample.op, first: first.status < 300, again: [again.status, again.text, again.location, again.replayed] });
      expect(answers.at(-1)).toEqual({ op: sample.op, first: true, again: [first.status, first.text, first.location, 'true'] });
    }
    // the areas with creates document the key on each (the ones without have none to send)
    expect(creates.length > 0).toBe(['agriculture', 'insight', 'tiles', 'observations', 'events', 'alerts'].includes(area));
  }, 120_000);

  it('gives each parameter examples its own schema takes, and every latitude and longitude an example', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body as OpenApi;
    const ajv = new Ajv2020({ strict: false });
    const faults: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const parameter of op.parameters ?? []) {
          const where = `${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}`;
          const examples = (parameter.schema.examples ?? []) as unknown[];
          if (/^(latitude|longitude)$/.test(parameter.name) && examples.length === 0) faults.push(`${where}: no examples`);
          for (const example of examples)
            if (!ajv.validate(parameter.schema, example)) faults.push(`${where}: refuses ${JSON.stringify(example)}`);
        }
      }
    }
    expect(faults).toEqual([]);
  });

  it('documents the headers a client reads: Link on lists that page, RateLimit after authentication, Retry-After on 429', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body as OpenApi;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        const [success, ...failures] = Object.entries(op.responses).sort(([a], [b]) => Number(a) - Number(b));
        // A list that takes a cursor of the previous page names the next one in Link (RFC 8288).
        const cursor = (op.parameters ?? []).some((p) => p.in === 'query' && /Link/.test(p.description ?? ''));
        expect({ where, link: 'Link' in (success![1].headers ?? {}) }).toEqual({ where, link: cursor });
        for (const [status, response] of [success!, ...failures]) {
          const headers = Object.keys(response.headers ?? {});
          expect({ where, status, headers }).toEqual({ where, status, headers: expect.arrayContaining(['X-Request-Id']) });
          if (status === '429')
            expect({ where, headers }).toEqual({ where, headers: expect.arrayContaining(['Retry-After', 'RateLimit']) });
          if (op.security?.length === 0 || status === '401')
            expect({ where, status, headers }).toEqual({ where, status, headers: expect.not.arrayContaining(['RateLimit']) });
        }
      }
    }
  });

  it('documents If-None-Match on every replace and delete that takes If-Match, as 412 when it names the current version (docs/decisions/0517)', async () => {
    const doc = (await request(fleet.app(area)).get('/openapi.json')).body as OpenApi;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const headers = (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
        if (!['put', 'delete'].includes(method) || !headers.includes('If-Match')) continue;
        const noneMatch = op.parameters!.find((p) => p.name === 'If-None-Match');
        expect({ where: `${method.toUpperCase()} ${path}`, describes412: /412/.test(noneMatch?.description ?? '') }).toEqual({
          where: `${method.toUpperCase()} ${path}`,
          describes412: true,
        });
      }
    }
  });
});

type JsonSchema = Record<string, unknown>;

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown[];
        parameters?: { name: string; in: string; description?: string; schema: JsonSchema & { examples?: unknown[] } }[];
        requestBody?: { required?: boolean; content: Record<string, { schema: { $ref?: string } }> };
        responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: JsonSchema }> }>;
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema & { examples?: unknown[] }> };
}

/** A request a client would send to one operation (`op`: its method and path template), answered with a success or `also`. */
interface Sample {
  op: string;
  url: string;
  query?: Record<string, string>;
  body?: unknown;
  accept?: string;
  /** the archive's credentials, in the query (docs/interface.md §11) rather than HTTP Basic */
  archive?: { u: string; t: string };
  /** a documented failure the request may also be answered with: a file still in preparation, nothing yet to name */
  also?: number;
}

/** What a service answered, its body as the bytes sent. */
interface Answer {
  status: number;
  type: string;
  text: string;
  location?: string;
  replayed?: string;
}

async function send(area: string, sample: Sample, auth: string | undefined, headers: Record<string, string> = {}): Promise<Answer> {
  const [method] = sample.op.split(' ') as [string];
  let req = request(fleet.app(area))[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](sample.url).set(headers);
  if (auth && !sample.archive) req = req.set('Authorization', auth);
  if (sample.accept) req = req.set('Accept', sample.accept);
  if (sample.query || sample.archive) req = req.query({ ...sample.query, ...sample.archive });
  if (sample.body !== undefined) req = req.send(sample.body as object);
  const res = await req.buffer(true).parse((stream, done) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => done(null, Buffer.concat(chunks)));
  });
  return {
    status: res.status,
    type: String(res.headers['content-type'] ?? ''),
    text: (res.body as Buffer).toString('utf8'),
    location: res.headers.location as string | undefined,
    replayed: res.headers['idempotent-replayed'] as string | undefined,
  };
}

/**
 * A document's schemas as a client that trusts them reads them: an object answers only the members
 * it lists (OpenAPI 3.1 leaves others allowed; a member the document does not name is one a
 * generated client drops), so each object schema with listed members and no word of its own on
 * others is closed.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema).map(([key, value]) => [
    key,
    key === 'properties' ? Object.fromEntries(Object.entries(value as JsonSchema).map(([name, s]) => [name, closed(s)])) : closed(value),
  ]);
  const out = Object.fromEntries(entries) as JsonSchema;
  if (out.type === 'object' && out.properties && !('additionalProperties' in out) && !('unevaluatedProperties' in out))
    out.unevaluatedProperties = false;
  return out;
}

/**
 * The faults of an answer against the document: a status the operation does not list, a media type
 * its response does not name (the documented one, parameters included, begins the Content-Type),
 * or a JSON body its schema refuses (JSON Schema 2020-12, formats checked).
 */
function answersAsDocumented(doc: OpenApi): (op: string, url: string, answer: Answer) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: closed(doc.components) });
  return (op, url, answer) => {
    const [method, path] = op.split(' ') as [string, string];
    const response = doc.paths[path]?.[method.toLowerCase()]?.responses[answer.status];
    const where = `${op} ${url} answered ${answer.status}`;
    if (!response) return [`${where}, not a documented status: ${answer.text.slice(0, 200)}`];
    const media = Object.keys(response.content ?? {}).find((m) => answer.type.toLowerCase().startsWith(m.toLowerCase()));
    if (media === undefined) return [`${where} as ${answer.type}, none of ${Object.keys(response.content ?? {}).join(', ')}`];
    const schema = response.content![media]!.schema;
    if (!schema || !/[/+]json$/.test(media.split(';')[0]!)) return [];
    const validate = ajv.compile(
      closed(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'))) as JsonSchema,
    );
    if (validate(JSON.parse(answer.text))) return [];
    return [`${where} a body its ${media} schema refuses: ${ajv.errorsText(validate.errors)}: ${answer.text.slice(0, 300)}`];
  };
}

/** The point the samples read: the specification's example location (Ames, Iowa). */
const LATITUDE = 42.0308;
const LONGITUDE = -93.6319;
const HERE = `${LATITUDE}/${LONGITUDE}`;
const CSV = 'text/csv';

/**
 * Representative requests to every operation of an area's document: resources created from the
 * documented request examples, or read from the area's own lists, and each read also as CSV where
 * the area serves it (docs/decisions/0243-csv-answers.md). A new operation is sampled here.
 */
async function samplesOf(area: string, doc: OpenApi, account: TestAccount): Promise<Sample[]> {
  const app = fleet.app(area);
  const auth = account.auth;
  const read = async <T = { id: string; name: string }>(url: string) =>
    (await request(app).get(url).set('Authorization', auth)).body as T[];
  const create = async (url: string, body: unknown) => {
    const res = await request(app)
      .post(url)
      .set('Authorization', auth)
      .send(body as object);
    expect({ url, status: res.status }).toEqual({ url, status: res.status < 300 ? res.status : 201 });
    return (res.body as { id: string }).id;
  };
  const example = (schema: string) => doc.components.schemas[schema]!.examples![0];
  const computed = (paths: string[], id: string, locations: unknown[], query: Record<string, string> = {}): Sample[] =>
    paths.flatMap((p) => [
      { op: `GET /${p}/{id}`, url: `/${p}/${id}`, query },
      { op: `GET /${p}/{id}`, url: `/${p}/${id}`, query, accept: CSV },
      { op: `GET /${p}/{latitude}/{longitude}`, url: `/${p}/${HERE}`, query },
      { op: `GET /${p}/{latitude}/{longitude}`, url: `/${p}/${HERE}`, query, accept: CSV },
      { op: `POST /${p}/batch`, url: `/${p}/batch`, query, body: { locations } },
      { op: `POST /${p}/batch`, url: `/${p}/batch`, query, body: { locations }, accept: CSV },
    ]);
  switch (area) {
    case 'agriculture': {
      const field = await create('/fields', example('FieldInput'));
      return [
        { op: 'GET /fields', url: '/fields' },
        { op: 'POST /fields', url: '/fields', body: example('FieldInput') },
        { op: 'GET /fields/{id}', url: `/fields/${field}` },
        { op: 'PUT /fields/{id}', url: `/fields/${field}`, body: example('FieldInput') },
        ...computed(['growing-degree-days', 'chill'], field, [[LONGITUDE, LATITUDE], field], { include: 'daily' }),
        { op: 'GET /growing-degree-days/{id}/contours', url: `/growing-degree-days/${field}/contours` },
        { op: 'DELETE /fields/{id}', url: `/fields/${field}` },
      ];
    }
    case 'insight': {
      const asset = await create('/assets', example('AssetInput'));
      return [
        { op: 'GET /assets', url: '/assets' },
        { op: 'POST /assets', url: '/assets', body: example('AssetInput') },
        { op: 'GET /assets/{id}', url: `/assets/${asset}` },
        { op: 'PUT /assets/{id}', url: `/assets/${asset}`, body: example('AssetInput') },
        ...computed(['hourly-relative-humidity', 'hourly-evapotranspiration-short-crop'], asset, [[LONGITUDE, LATITUDE], asset]),
        { op: 'DELETE /assets/{id}', url: `/assets/${asset}` },
      ];
    }
    case 'tiles': {
      const product = 'air-temperature';
      const [style] = await read<{ id: string; layerName: string; colorizers: unknown }>(`/v2/products/${product}/styles.json`);
      const [frame] = await read(`/v2/products/${product}/frames.json`);
      const input = (name: string) => ({ name, layerName: style!.layerName, colorizers: style!.colorizers });
      const mine = await create(`/v2/products/${product}/styles`, input('openapi-sample'));
      const tile = `/v2/frames/${frame!.id}/tile/3/2/3.png`;
      return [
        { op: 'GET /v2/products/{product}/styles.json', url: `/v2/products/${product}/styles.json` },
        { op: 'POST /v2/products/{product}/styles', url: `/v2/products/${product}/styles`, body: input('openapi-sample-2') },
        { op: 'GET /v2/styles/{id}.json', url: `/v2/styles/${mine}.json` },
        { op: 'PUT /v2/styles/{id}.json', url: `/v2/styles/${mine}.json`, body: input('openapi-sample') },
        { op: 'GET /v2/products/{product}/frames.json', url: `/v2/products/${product}/frames.json` },
        { op: 'GET /v2/frames/{frame}/tile/{z}/{x}/{y}.png', url: tile },
        { op: 'GET /v2/frames/{frame}/tile/{z}/{x}/{y}.png', url: tile, query: { style: 'openapi-sample' } },
        { op: 'DELETE /v2/styles/{id}.json', url: `/v2/styles/${mine}.json` },
      ];
    }
    case 'platform': {
      const [product] = await read('/products');
      const [frame] = await read(`/products/${product!.name}/frames?limit=1`);
      const [forecast] = await read(`/products/${product!.name}/forecasts?limit=1`);
      return [
        { op: 'GET /products', url: '/products' },
        { op: 'GET /products/{product}', url: `/products/${product!.name}` },
        { op: 'GET /products/{product}/frames', url: `/products/${product!.name}/frames`, query: { limit: '2' } },
        { op: 'GET /products/{product}/forecasts', url: `/products/${product!.name}/forecasts`, query: { limit: '2' } },
        { op: 'GET /forecasts/{id}', url: `/forecasts/${forecast!.id}` },
        { op: 'GET /forecasts/{id}/frames', url: `/forecasts/${forecast!.id}/frames`, query: { limit: '2' } },
        { op: 'GET /frames/{id}', url: `/frames/${frame!.id}` },
        { op: 'GET /frames/{id}/datapoint/{latitude}/{longitude}', url: `/frames/${frame!.id}/datapoint/${HERE}` },
      ];
    }
    case 'model': {
      const [model] = await read('/models');
      const [forecast] = await read(`/models/${model!.id}/forecasts?limit=1`);
      const [variable] = await read(`/forecasts/${forecast!.id}/variables`);
      const latest = `/models/${model!.id}/latest-forecast/timeseries/${HERE}`;
      const series = `/forecasts/${forecast!.id}/variables/${variable!.name}/timeseries/${HERE}`;
      const few = { limit: '3' };
      return [
        { op: 'GET /models', url: '/models' },
        { op: 'GET /models/{id}', url: `/models/${model!.name}` },
        { op: 'GET /models/{id}/variables', url: `/models/${model!.id}/variables` },
        { op: 'GET /models/{id}/forecasts', url: `/models/${model!.id}/forecasts`, query: { limit: '2' } },
        { op: 'GET /models/{id}/latest-forecast', url: `/models/${model!.id}/latest-forecast` },
        { op: 'GET /models/{id}/latest-forecast/timeseries/{latitude}/{longitude}', url: latest, query: few },
        { op: 'GET /models/{id}/latest-forecast/timeseries/{latitude}/{longitude}', url: latest, query: few, accept: CSV },
        { op: 'GET /forecasts/{id}', url: `/forecasts/${forecast!.id}` },
        { op: 'GET /forecasts/{id}/variables', url: `/forecasts/${forecast!.id}/variables` },
        { op: 'GET /variables/{id}', url: `/variables/${variable!.id}` },
        { op: 'GET /forecasts/{id}/variables/{variable}/timeseries/{latitude}/{longitude}', url: series, query: few },
        { op: 'GET /forecasts/{id}/variables/{variable}/timeseries/{latitude}/{longitude}', url: series, query: few, accept: CSV },
      ];
    }
    case 'observations': {
      const time = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000).toISOString();
      const variables = [{ name: 'temperature', unit: 'celsius', value: 21.5 }];
      const body = {
        sites: [{ id: 'ames', latitude: LATITUDE, longitude: LONGITUDE, elevation: 291, observations: [{ time, variables }] }],
      };
      const set = await create('/observation-sets', body);
      return [
        { op: 'POST /observation-sets', url: '/observation-sets', body },
        { op: 'GET /observation-sets', url: '/observation-sets' },
        { op: 'GET /observation-sets/variables', url: '/observation-sets/variables' },
        { op: 'GET /observation-sets/{id}', url: `/observation-sets/${set}` },
        { op: 'GET /observation-sets/{id}', url: `/observation-sets/${set}`, accept: CSV },
      ];
    }
    case 'transfer': {
      const [product] = await read('/products');
      const [dataset] = await read(`/products/${product!.name}/datasets`);
      return [
        { op: 'GET /products', url: '/products' },
        { op: 'GET /products/{name}/datasets', url: `/products/${product!.name}/datasets` },
        // the file may still be in preparation (503 with Retry-After): both are documented
        { op: 'GET /products/{name}/datasets/{dataset}', url: `/products/${product!.name}/datasets/${dataset!.name}`, also: 503 },
      ];
    }
    case 'events': {
      const origin = { namespace: 'openapi/samples', id: randomUUID() };
      const body = { app: account.handle, namespace: 'openapi/samples', message: 'a sample event', origin };
      const event = await create('/events', body);
      const subscription = await create('/subscriptions', example('SubscriptionInput'));
      return [
        { op: 'POST /events', url: '/events', body },
        { op: 'GET /events', url: '/events' },
        { op: 'GET /events/{id}', url: `/events/${event}` },
        { op: 'GET /event/{id}', url: `/event/${event}` },
        { op: 'GET /apps/{app}/events', url: `/apps/${account.handle}/events` },
        { op: 'GET /resources/{id}/events', url: `/resources/${origin.id}/events` },
        { op: 'GET /subscriptions', url: '/subscriptions' },
        { op: 'POST /subscriptions', url: '/subscriptions', body: example('SubscriptionInput') },
        { op: 'GET /subscriptions/{id}', url: `/subscriptions/${subscription}` },
        { op: 'GET /subscriptions/{id}/deliveries', url: `/subscriptions/${subscription}/deliveries` },
        { op: 'POST /subscriptions/{id}/secret', url: `/subscriptions/${subscription}/secret`, body: {} },
        // nothing has been delivered to the example's receiver, so there is no delivery to retry
        {
          op: 'POST /subscriptions/{id}/deliveries/{delivery}/retry',
          url: `/subscriptions/${subscription}/deliveries/${randomUUID()}/retry`,
          also: 404,
        },
        // the example's receiver has passed no handshake: validating, or validation_failed, both validated again
        { op: 'POST /subscriptions/{id}/validate', url: `/subscriptions/${subscription}/validate` },
        { op: 'DELETE /subscriptions/{id}', url: `/subscriptions/${subscription}` },
      ];
    }
    case 'alerts': {
      const rule = await create('/rules', example('AlertRuleInput'));
      return [
        { op: 'GET /rules', url: '/rules' },
        { op: 'POST /rules', url: '/rules', body: example('AlertRuleInput') },
        { op: 'GET /rules/{id}', url: `/rules/${rule}` },
        { op: 'GET /rules/{id}/state', url: `/rules/${rule}/state` },
        { op: 'PUT /rules/{id}', url: `/rules/${rule}`, body: example('AlertRuleInput') },
        { op: 'DELETE /rules/{id}', url: `/rules/${rule}` },
      ];
    }
    case 'archive': {
      // supertest calls from the loopback, as IPv4 or IPv6 depending on the host
      const user = await new ArchiveUserStore(fleet.db.knex).register({ name: 'openapi-samples', ranges: ['127.0.0.1/32', '::1/128'] });
      const archive = { u: user.name, t: user.token };
      const words = { request: 'summary', location: '+42.0308-093.6319', date: '2025-05-19' };
      return Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods).flatMap((method) => {
          const url = path.replace(/\{(\w+)\}/g, (_all, name: string) => words[name as keyof typeof words]);
          const op = `${method.toUpperCase()} ${path}`;
          return [
            { op, url, archive },
            { op, url: url.replace('/summary/', '/history/'), archive, accept: 'application/xml' },
            { op, url: `${url.replace('/summary/', '/latest/')}.kml`, archive },
          ];
        }),
      );
    }
    default:
      return [];
  }
}
