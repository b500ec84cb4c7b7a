import { migrateSchema, openDatabase, outboxMigration, type Database } from '@fieldcast/db';
import { stylesMigration } from '../migrations/001_styles.js';
import { productGrantsMigration } from '../migrations/002_product_grants.js';
import { styleNameKeysMigration } from '../migrations/003_style_name_keys.js';
import { styleViewsMigration } from '../migrations/004_style_views.js';
import { nameKey } from '@fieldcast/schemas';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const PRODUCT = '22222222-2222-5222-8222-222222222222';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ dataDir: null });
});
afterAll(() => db.close());

describe('tiles migrations', () => {
  it('002 adds the copy of the platform’s grants to a schema that already holds styles, keeping them', async () => {
    await migrateSchema(db.knex, 'tiles', [outboxMigration(), stylesMigration]);
    const now = new Date();
    await db.knex.withSchema('tiles').table('styles').insert({
      id: '33333333-3333-4333-8333-333333333333',
      account_id: ACCOUNT,
      product_id: PRODUCT,
      name: 'Kept',
      name_key: 'kept',
      description: '',
      layer_name: 'air_temperature',
      colorizers: '[]',
      created_at: now,
      updated_at: now,
    });
    await migrateSchema(db.knex, 'tiles', [outboxMigration(), stylesMigration, productGrantsMigration]);
    expect(await db.knex.withSchema('tiles').table('styles').pluck('name')).toEqual(['Kept']);
    await db.knex.withSchema('tiles').table('product_grants').insert({ account_id: ACCOUNT, product_id: PRODUCT });
    // one row per grant: the consumer's insert of a repeated grant relies on the key
    await expect(db.knex.withSchema('tiles').table('product_grants').insert({ account_id: ACCOUNT, product_id: PRODUCT })).rejects.toThrow(
      /duplicate key/,
    );
  });

  it('003 compares the names already held as new ones are (docs/decisions/0393-style-names-compared-as-they-read.md)', async () => {
    await migrateSchema(db.knex, 'tiles', [outboxMigration(), stylesMigration, productGrantsMigration]);
    const styles = () => db.knex.withSchema('tiles').table('styles');
    await styles().delete();
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
    // names with the keys the former rule (trimmed, lower case) gave them
    const held: [string, string, number][] = [
      ['Cafe\u0301', 'cafe\u0301', 1],
      ['CAF\u00c9', 'caf\u00e9', 2],
      ['Hail   size', 'hail   size', 3],
      ['\uff37ind', '\uff57ind', 4],
      ['Kept', 'kept', 5],
    ];
    const ids = held.map((_, i) => `33333333-3333-4333-8333-33333333333${i}`);
    await styles().insert(
      held.map(([name, key, minute], i) => ({
        id: ids[i],
        account_id: ACCOUNT,
        product_id: PRODUCT,
        name,
        name_key: key,
        description: '',
        layer_name: 'air_temperature',
        colorizers: '[]',
        created_at: at(minute),
        updated_at: at(minute),
      })),
    );
    await migrateSchema(db.knex, 'tiles', [outboxMigration(), stylesMigration, productGrantsMigration, styleNameKeysMigration]);
    const keys = new Map((await styles().select('id', 'name', 'name_key')).map((r) => [r.id as string, r]));
    // each name is compared in the form new names are: the held ones stay taken
    for (const i of [1, 2, 3, 4]) expect(keys.get(ids[i]!)!.name_key).toBe(nameKey(held[i]![0]));
    // two styles held one name in two Unicode forms: the one whose key stood keeps it, the other's blocks nothing
    expect(keys.get(ids[0]!)!.name_key).not.toBe(nameKey(held[0]![0]));
    expect(keys.get(ids[0]!)!.name).toBe('Cafe\u0301');
    await expect(
      styles().insert({
        ...(await styles().where({ id: ids[4] }).first()),
        id: '44444444-4444-4444-8444-444444444444',
        name_key: 'hail size',
      }),
    ).rejects.toThrow(/duplicate key/);
  });

  it('004 gives each style already held the JSON text every answer gives of it (docs/decisions/0417-one-representation-of-a-style.md)', async () => {
    const before = [outboxMigration(), stylesMigration, productGrantsMigration, styleNameKeysMigration];
    await migrateSchema(db.knex, 'tiles', before);
    const styles = () => db.knex.withSchema('tiles').table('styles');
    await styles().delete();
    const now = new Date();
    await styles().insert({
      id: '55555555-5555-4555-8555-555555555555',
      account_id: ACCOUNT,
      product_id: PRODUCT,
      name: 'Held',
      name_key: 'held',
      description: 'before 004',
      layer_name: 'air_temperature',
      colorizers: JSON.stringify([{ stops: [{ color: '#0000ff', value: -5 }], defaultMode: 'linear', defaultColor: '#000000' }]),
      created_at: now,
      updated_at: now,
    });
    await migrateSchema(db.knex, 'tiles', [...before, styleViewsMigration]);
    const row = await styles().where({ id: '55555555-5555-4555-8555-555555555555' }).first('view');
    expect(row.view).toBe(
      JSON.stringify({
        id: '55555555-5555-4555-8555-555555555555',
        name: 'Held',
        description: 'before 004',
        layerName: 'air_temperature',
        colorizers: [{ defaultColor: '#000000', defaultMode: 'linear', stops: [{ value: -5, color: '#0000ff' }] }],
        isDefault: false,
        productId: PRODUCT,
      }),
    );
    // every style has its text from now on
    await expect(
      styles().insert({ ...(await styles().first()), id: '66666666-6666-4666-8666-666666666666', name_key: 'other', view: null }),
    ).rejects.toThrow(/null value/);
  });
});
