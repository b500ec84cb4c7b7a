import { type Api, BodyFault, ownedResourceRoutes } from '@fieldcast/kit';
import { Field, FieldInput } from '@fieldcast/schemas';
import { fieldRecord, fieldView } from '../domain/fields.js';
import type { FieldStore } from '../store.js';

const geometryFault = BodyFault.semantic('invalid_geometry', 'The field geometry is not valid');

/** Fields (spec 2.1, 4.2): each account sees and changes only its own. */
export function fieldRoutes(api: Api, fields: FieldStore): Api {
  return ownedResourceRoutes(api, fields, {
    kind: 'field',
    path: '/fields',
    tag: 'fields',
    noun: { one: 'field', many: 'fields' },
    input: FieldInput,
    // A fault in the geometry or its type is a bad geometry (docs/architecture.md §3: 422); a
    // description that is no string of at most 10,000 characters is a malformed body.
    bodyFaults: { description: BodyFault.malformed, type: geometryFault, geometries: geometryFault },
    view: Field,
    build: fieldRecord,
    present: fieldView,
    docs: {
      create: {
        summary: 'Create a field from Polygon geometries',
        response: 'The created field, geometries as MultiPolygons, with its centroid',
      },
    },
  });
}
