import type { Migration } from '@fieldcast/db';
import { nameKey } from '@fieldcast/schemas';

/**
 * Names are compared as people read them (docs/decisions/0393-style-names-compared-as-they-read.md):
 * the names already held get the key a new name is compared by, so a name held in one Unicode form
 * stays taken in every other. Only names outside printable ASCII or with a run of spaces can have
 * a new key. Where two styles already hold one name in two forms, the one whose key stands keeps
 * it (else the oldest) and the other gets a key no name has (a space, then its id: a key never
 * starts with a space), so nothing held is lost.
 */
export const styleNameKeysMigration: Migration = {
  name: '003_style_name_keys',
  async up(knex, schema) {
    const styles = () => knex.withSchema(schema).table('styles');
    const rows: { id: string; name: string; name_key: string }[] = await styles()
      .select('id', 'name', 'name_key')
      .whereRaw(`name ~ '[^ -~]' or name like '%  %'`)
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    const changing = rows.filter((r) => nameKey(r.name) !== r.name_key);
    if (changing.length === 0) return;
    // First a key of its own for each, so no update meets a key another row is about to give up.
    for (const r of changing)
      await styles()
        .where({ id: r.id })
        .update({ name_key: ` ${r.id}` });
    for (const r of changing) {
      const key = nameKey(r.name);
      // held by a style whose key stood, or by an older one given it here: this one keeps its own
      if (await styles().where({ name_key: key }).first('id')) continue;
      await styles().where({ id: r.id }).update({ name_key: key });
    }
  },
};
