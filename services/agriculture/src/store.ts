import type { Knex } from 'knex';
import type { Outbox } from '@fieldcast/db';
import { topicFor } from '@fieldcast/bus';
import { fieldView, type FieldRecord } from './domain/fields.js';
import { type FieldRecordCache, fieldRecordCacheFor } from './field-record-cache.js';

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
  created_at?: Date;
  updated_at?: Date;
}

/**
 * The columns a FieldRecord is read from. Naming them, rather than `select *`, skips decoding the
 * two timestamps, which the embedded PGlite does slowly (about 1 ms of a 1.9 ms lookup; the
 * degree-day endpoints read a field on every request, bench/README.md).
 */
const RECORD_COLUMNS = ['id', 'account_id', 'description', 'polygons', 'centroid_lat', 'centroid_lon', 'area_m2'];

function fromRow(row: FieldRow): FieldRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    description: row.description,
    polygons: typeof row.polygons === 'string' ? JSON.parse(row.polygons) : row.polygons,
    centroid: { latitude: row.centroid_lat, longitude: row.centroid_lon },
    areaM2: row.area_m2,
  };
}

function toRow(record: FieldRecord) {
  return {
    id: record.id,
    account_id: record.accountId,
    description: record.description,
    polygons: JSON.stringify(record.polygons),
    centroid_lat: record.centroid.latitude,
    centroid_lon: record.centroid.longitude,
    area_m2: record.areaM2,
  };
}

/**
 * The agriculture schema's fields table; nothing else touches it. Every change writes its
 * outbox event in the same transaction (DESIGN.md section 5).
 */
export class FieldStore {
  /** Set only when this process is the database's one writer (embedded PGlite). */
  private readonly cache: FieldRecordCache | null;

  constructor(
    private readonly knex: Knex,
    private readonly outbox: Outbox,
    private readonly now: () => Date,
    options: { soleWriter?: boolean } = {},
  ) {
    this.cache = options.soleWriter ? fieldRecordCacheFor(knex) : null;
  }

  private table(db: Knex | Knex.Transaction = this.knex) {
    return db.withSchema(AREA).table('fields');
  }

  async list(accountId: string): Promise<FieldRecord[]> {
    const rows: FieldRow[] = await this.table().select(RECORD_COLUMNS).where({ account_id: accountId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** null for an unknown id and for another account's field alike (spec 5: ownership). */
  async get(accountId: string, id: string): Promise<FieldRecord | null> {
    const cached = this.cache?.get(id);
    if (cached) return cached.accountId === accountId ? cached : null;
    const token = this.cache?.readStarted() ?? 0;
    const row: FieldRow | undefined = await this.table().select(RECORD_COLUMNS).where({ id, account_id: accountId }).first();
    if (!row) return null;
    const record = fromRow(row);
    this.cache?.fill(token, record);
    return record;
  }

  /** Runs a write of field `id` with the cache entry dropped before it starts and after it ends. */
  private async writing<T>(id: string, write: () => Promise<T>): Promise<T> {
    this.cache?.invalidate(id);
    try {
      return await write();
    } finally {
      this.cache?.invalidate(id);
    }
  }

  async create(record: FieldRecord): Promise<FieldRecord> {
    const now = this.now();
    await this.writing(record.id, () =>
      this.knex.transaction(async (trx) => {
        await this.table(trx).insert({ ...toRow(record), created_at: now, updated_at: now });
        await this.publish(trx, record, 'created', now);
      }),
    );
    return record;
  }

  async replace(record: FieldRecord): Promise<FieldRecord | null> {
    const now = this.now();
    return this.writing(record.id, () =>
      this.knex.transaction(async (trx) => {
        const { id, account_id, ...changes } = toRow(record);
        const n: number = await this.table(trx).where({ id, account_id }).update({ ...changes, updated_at: now });
        if (n === 0) return null;
        await this.publish(trx, record, 'updated', now);
        return record;
      }),
    );
  }

  async remove(accountId: string, id: string): Promise<FieldRecord | null> {
    const now = this.now();
    return this.writing(id, () =>
      this.knex.transaction(async (trx) => {
        const [row] = await this.table(trx).where({ id, account_id: accountId }).delete().returning('*');
        if (!row) return null;
        const record = fromRow(row as FieldRow);
        await this.publish(trx, record, 'deleted', now);
        return record;
      }),
    );
  }

  private publish(trx: Knex.Transaction, record: FieldRecord, action: string, time: Date) {
    return this.outbox.add(trx, FIELDS_TOPIC, {
      area: AREA,
      resource: 'field',
      action,
      subject: record.id,
      time,
      data: { account: record.accountId, resource: fieldView(record), related: [{ namespace: FIELD_NAMESPACE, id: record.id }] },
    });
  }
}
