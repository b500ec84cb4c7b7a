import { randomUUID } from 'node:crypto';
import { Api, notFound } from '@fieldcast/kit';
import { Field, FIELD_GEOMETRY_PATHS, FieldInput, IdParams } from '@fieldcast/schemas';
import { z } from 'zod';
import { fieldRecord, fieldView } from '../domain/fields.js';
import type { FieldStore } from '../store.js';

const fieldMissing = (id: string) => notFound('field_does_not_exist', `Field ${id} does not exist`);
const geometry = { id: 'invalid_geometry', message: 'The field geometry is not valid', paths: FIELD_GEOMETRY_PATHS };

/** Fields (spec 2.1, 4.2): each account sees and changes only its own. */
export function fieldRoutes(api: Api, fields: FieldStore): Api {
  return api
    .op({
      method: 'get',
      path: '/fields',
      summary: 'List the calling account’s fields',
      tags: ['fields'],
      response: { status: 200, description: 'The fields, oldest first', schema: z.array(Field) },
      handle: async ({ account }) => (await fields.list(account.id)).map(fieldView),
    })
    .op({
      method: 'get',
      path: '/fields/{id}',
      summary: 'Read a field',
      tags: ['fields'],
      params: IdParams,
      response: { status: 200, description: 'The field', schema: Field },
      errors: [404],
      handle: async ({ account, params }) => {
        const record = await fields.get(account.id, params.id);
        if (!record) throw fieldMissing(params.id);
        return fieldView(record);
      },
    })
    .op({
      method: 'post',
      path: '/fields',
      summary: 'Create a field from Polygon geometries',
      tags: ['fields'],
      body: FieldInput,
      semantic: geometry,
      response: { status: 201, description: 'The created field, geometries as MultiPolygons, with its centroid', schema: Field },
      errors: [422],
      handle: async ({ account, body }) => fieldView(await fields.create(fieldRecord(randomUUID(), account.id, body))),
    })
    .op({
      method: 'put',
      path: '/fields/{id}',
      summary: 'Replace a field',
      tags: ['fields'],
      params: IdParams,
      body: FieldInput,
      semantic: geometry,
      response: { status: 200, description: 'The updated field', schema: Field },
      errors: [404, 422],
      handle: async ({ account, params, body }) => {
        const record = await fields.replace(fieldRecord(params.id, account.id, body));
        if (!record) throw fieldMissing(params.id);
        return fieldView(record);
      },
    })
    .op({
      method: 'delete',
      path: '/fields/{id}',
      summary: 'Delete a field',
      tags: ['fields'],
      params: IdParams,
      response: { status: 200, description: 'The removed field', schema: Field },
      errors: [404],
      handle: async ({ account, params }) => {
        const record = await fields.remove(account.id, params.id);
        if (!record) throw fieldMissing(params.id);
        return fieldView(record);
      },
    });
}
