import type { Knex } from 'knex';
import { topicFor } from '@fieldcast/bus';
import { OwnedResourceStore, type Outbox, type OwnedResourceTable } from '@fieldcast/db';
import { type AssetRecord, assetView } from './domain/assets.js';

export const AREA = 'insight';
export const ASSETS_TOPIC = topicFor(AREA, 'assets');
const ASSET_NAMESPACE = 'insight/assets';

interface AssetRow {
  id: string;
  account_id: string;
  tags: AssetRecord['tags'] | string;
  polygon: AssetRecord['polygon'] | string;
  centroid_lat: number;
  centroid_lon: number;
  area_m2: number;
}

/** jsonb comes back parsed from PostgreSQL and as text from some drivers. */
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

const ASSETS: OwnedResourceTable<AssetRecord> = {
  area: AREA,
  table: 'assets',
  kind: 'asset',
  topic: ASSETS_TOPIC,
  columns: ['id', 'account_id', 'tags', 'polygon', 'centroid_lat', 'centroid_lon', 'area_m2'],
  fromRow(raw) {
    const row = raw as unknown as AssetRow;
    return {
      id: row.id,
      accountId: row.account_id,
      tags: json(row.tags),
      polygon: json(row.polygon),
      centroid: { latitude: row.centroid_lat, longitude: row.centroid_lon },
      areaM2: row.area_m2,
    };
  },
  toRow(record) {
    return {
      id: record.id,
      account_id: record.accountId,
      tags: JSON.stringify(record.tags),
      polygon: JSON.stringify(record.polygon),
      centroid_lat: record.centroid.latitude,
      centroid_lon: record.centroid.longitude,
      area_m2: record.areaM2,
    };
  },
  snapshot: assetView,
  related: (record) => [{ namespace: ASSET_NAMESPACE, id: record.id }],
};

/** Assets, owned by accounts (docs/interface.md §5); each change writes its outbox event (docs/architecture.md §5). */
export class AssetStore extends OwnedResourceStore<AssetRecord> {
  constructor(knex: Knex, outbox: Outbox, now: () => Date) {
    super(knex, outbox, now, ASSETS);
  }
}
