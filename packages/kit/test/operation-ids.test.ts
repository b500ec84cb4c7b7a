import { z } from 'zod';
import { Api } from '../src/index.js';
import { openApiDocument, operationIdOf } from '../src/openapi.js';

/*
 * Every operation has an operationId derived from its method and path (OpenAPI 3.1 section
 * 4.8.10: unique among the document's operations; code generators name methods after it;
 * docs/decisions/0213-openapi-documents-for-generators.md).
 */
describe('operationIdOf', () => {
  it('is the method, then each path segment in camel case, a parameter as By<Name>', () => {
    expect(operationIdOf('get', '/fields/{id}/degree-days')).toBe('getFieldsByIdDegreeDays');
    expect(operationIdOf('post', '/observation-sets')).toBe('postObservationSets');
    expect(operationIdOf('get', '/v2/frames/{frame}/tile/{z}/{x}/{y}.png')).toBe('getV2FramesByFrameTileByZByXByYPng');
    expect(operationIdOf('get', '/v2/{type}/{request}/{location}')).toBe('getV2ByTypeByRequestByLocation');
    expect(operationIdOf('delete', '/v2/styles/{id}.json')).toBe('deleteV2StylesByIdJson');
  });
});

describe('the document’s operationIds', () => {
  const document = (paths: string[]) =>
    openApiDocument({
      title: 't',
      version: '1',
      description: 'd',
      mediaType: 'application/json',
      operations: paths.reduce(
        (api, path) =>
          api.op({
            method: 'get',
            path,
            summary: path,
            response: { status: 200, description: 'ok', schema: z.object({}) },
            handle: () => ({}),
          }),
        new Api(),
      ).operations,
    });

  it('names each operation, with the licence and the relative server every document carries', () => {
    const doc = document(['/a', '/a/{id}']);
    expect(Object.values(doc.paths).map((p) => (p.get as { operationId: string }).operationId)).toEqual(['getA', 'getAById']);
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license).toMatchObject({ name: expect.any(String), identifier: expect.stringMatching(/^LicenseRef-/) });
  });

  it('refuses two routes that would share one', () => {
    expect(() => document(['/a-b', '/a/b'])).toThrow(/GET \/a\/b and GET \/a-b would share the operationId getAB/);
  });
});
