import type { Knex } from 'knex';
import { OwnedResourceStore, type Outbox, type OwnedResourceTable } from '@fieldcast/db';
import { topicFor } from '@fieldcast/bus';
import { fieldView, type FieldRecord } from './domain/fields.js';
import { fieldRecordCacheFor } from './field-record-cache.js';

export const AREA = 'agriculture';
export const FIELDS_TOPIC = topicFor(AREA, 'fields');
const FIELD_NAMESPACE = 'agriculture/fields';

interface FieldRow {
  id: string;
  account_id: string;
  description: string;
  polygons: FieldRecord['polygons'] | string;
  centroid_lat: number;
  centroid_lon: number;
  area_m2: number;
}

/**
 * The fields table of the agriculture schema; nothing else touches it. Its columns are named,
 * rather than `select *`, to skip decoding the two timestamps, which the embedded PGlite does
 * slowly (about 1 ms of a 1.9 ms lookup; the degree-day endpoints read a field on every request,
 * bench/README.md).
 */
const FIELDS: OwnedResourceTable<FieldRecord> = {
  area: AREA,
  table: 'fields',
  kind: 'field',
  topic: FIELDS_TOPIC,
  columns: ['id', 'account_id', 'description', 'polygons', 'centroid_lat', 'centroid_lon', 'area_m2'],
  fromRow(raw) {
    const row = raw as unknown as FieldRow;
    return {
      id: row.id,
      accountId: row.account_id,
      description: row.description,
      polygons: typeof row.polygons === 'string' ? JSON.parse(row.polygons) : row.polygons,
      centroid: { latitude: row.centroid_lat, longitude: row.centroid_lon },
      areaM2: row.area_m2,
    };
  },
  toRow(record) {
    return {
      id: record.id,
      account_id: record.accountId,
      description: record.description,
      polygons: JSON.stringify(record.polygons),
      centroid_lat: record.centroid.latitude,
      centroid_lon: record.centroid.longitude,
      area_m2: record.areaM2,
    };
  },
  snapshot: fieldView,
  related: (record) => [{ namespace: FIELD_NAMESPACE, id: record.id }],
};

/**
 * Fields, owned by accounts (docs/interface.md, fields). Where this process is the database's one
 * writer (embedded PGlite) lookups go through a record cache (field-record-cache.ts).
 */
export class FieldStore extends OwnedResourceStore<FieldRecord> {
  constructor(knex: Knex, outbox: Outbox, now: () => Date, options: { soleWriter?: boolean } = {}) {
    super(knex, outbox, now, FIELDS, options.soleWriter ? fieldRecordCacheFor(knex) : null);
  }
}
