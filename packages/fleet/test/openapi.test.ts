import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestFleet, type TestFleet } from '@fieldcast/runtime/testing';
import { SERVICES } from '../src/services.js';

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
});

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown[];
        parameters?: { in: string; description?: string }[];
        requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
        responses: Record<string, { headers?: Record<string, unknown> }>;
      }
    >
  >;
}
