import type { Migration } from '@fieldcast/db';

/** JavaScript's Date#toISOString form; stored times have millisecond precision (docs/decisions/0025-event-creation.md). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The feed entry (spec 2.10: an Event without `namespace`) of events row `e`, as JSON text: the
 * keys, their order and the values of JSON.stringify(toFeedEntry(event)), byte for byte
 * (test/feed-json.test.ts holds it to what the service stores). row_to_json of a lateral row
 * rather than json_build_object, which puts spaces around every colon; tagged refs rebuilt in
 * the spec's key order because jsonb does not keep it. Used to fill `entry` for rows stored
 * before this migration, and by bench/events.bench.ts for rows it loads in SQL.
 */
export const FEED_ENTRY_SQL = `(select row_to_json(f)::text from (select e.id, e.app,
  (select row_to_json(o) from (select e.origin_namespace as namespace, e.origin_id as id) o) as origin,
  e.status, e.message,
  ${iso('e.creation_time')} as "creationTime", ${iso('e.occurrence_time')} as "occurrenceTime", ${iso('e.expiration_time')} as "expirationTime",
  (select coalesce('[' || string_agg(row_to_json(r)::text, ',' order by t.n) || ']', '[]')::json
     from jsonb_array_elements(e.tagged) with ordinality t(ref, n)
     cross join lateral (select t.ref ->> 'namespace' as namespace, t.ref ->> 'id' as id) r) as tagged) f)`;

/**
 * Each event keeps its feed entry as JSON text, written once when it is stored
 * (events never change: docs/decisions/0026-applications-status-and-expiration.md), so a feed page is index ranges plus one
 * string_agg. Building the entries per request cost PostgreSQL about 0.07 ms a page on the
 * cores Node also needs (docs/decisions/0029-feed-reads-at-scale.md).
 */
export const feedEntriesMigration: Migration = {
  name: '003_feed_entries',
  async up(knex, schema) {
    await knex.raw('alter table ??.events add column entry text', [schema]);
    await knex.raw(`update ??.events e set entry = ${FEED_ENTRY_SQL}`, [schema]);
    await knex.raw('alter table ??.events alter column entry set not null', [schema]);
  },
};
