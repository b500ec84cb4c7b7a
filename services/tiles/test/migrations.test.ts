import { migrateSchema, openDatabase, outboxMigration, type Database } from '@fieldcast/db';
import { stylesMigration } from '../migrations/001_styles.js';
import { productGrantsMigration } from '../migrations/002_product_grants.js';

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
});
