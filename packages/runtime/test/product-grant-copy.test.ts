import { migrateSchema } from '@fieldcast/db';
import { fieldcastId } from '@fieldcast/ids';
import { ProductGrantCopy, productGrantsCopyMigration } from '../src/product-grants.js';
import { openTestDatabase } from '../src/testing.js';

/*
 * An area's copy of the product grants takes each grant-state message at least once: published
 * again after a crash of the embedded fleet, a message the copy had taken changes nothing
 * (docs/decisions/0503-an-embedded-outbox-row-is-sent-once-consumed.md).
 */
it('a grant or a revocation applied again ends as applied once', async () => {
  const db = await openTestDatabase();
  try {
    await migrateSchema(db.knex, 'grantcopy', [productGrantsCopyMigration('001_product_grants')]);
    const copy = new ProductGrantCopy(db.knex, 'grantcopy');
    const state = { accountId: fieldcastId('account', 'a'), productId: fieldcastId('product', 'p') };
    await copy.apply({ ...state, granted: true });
    await copy.apply({ ...state, granted: true });
    expect(await copy.isGranted(state.accountId, state.productId)).toBe(true);
    await copy.apply({ ...state, granted: false });
    // the grant and its revocation published again, in their order
    await copy.apply({ ...state, granted: true });
    await copy.apply({ ...state, granted: false });
    await copy.apply({ ...state, granted: false });
    expect(await copy.isGranted(state.accountId, state.productId)).toBe(false);
  } finally {
    await db.close();
  }
});
