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
});
