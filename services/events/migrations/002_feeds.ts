import type { Migration } from '@fieldcast/db';
import { fieldcastId, PUBLIC_AUDIENCE } from '@fieldcast/ids';

/**
 * Application feeds and resource feeds, each served by a keyset range scan.
 * Every feed is the union of two ranges, public events and the viewer's own, so each index leads
 * with the feed key and the audience, then the feed order. The audience is owner_account with
 * null (public) replaced by the nil UUID: `owner_account is null` is not an equality to the
 * planner, so a range under it would not come out in index order and every public page would
 * sort the whole public range.
 */
export const feedsMigration: Migration = {
  name: '002_feeds',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('events', (t) => {
      /** the emitting application: the account id of a POSTing app, UUID v5 of `app:<area>` otherwise */
      t.uuid('app_id');
    });
    // Rows so far were all consumed from resource topics, so `app` is an area name.
    const apps: { app: string }[] = await knex.withSchema(schema).table('events').distinct('app');
    for (const { app } of apps)
      await knex
        .withSchema(schema)
        .table('events')
        .where({ app })
        .update({ app_id: fieldcastId('app', app) });
    await knex.raw('alter table ??.events alter column app_id set not null', [schema]);
    await knex.raw(
      `alter table ??.events add column audience uuid generated always as (coalesce(owner_account, '${PUBLIC_AUDIENCE}'::uuid)) stored`,
      [schema],
    );
    await knex.raw('drop index if exists ??.events_feed', [schema]);
    await knex.raw('drop index if exists ??.events_owner_feed', [schema]);
    await knex.raw('create index events_feed on ??.events (audience, occurrence_time desc, seq desc)', [schema]);
    await knex.raw('create index events_app_feed on ??.events (app_id, audience, occurrence_time desc, seq desc)', [schema]);

    // One row per resource an event names (origin or tagged), with the event's feed key and
    // visibility copied in, so a resource feed is a range scan of this table alone.
    await knex.schema.withSchema(schema).createTable('event_resources', (t) => {
      t.uuid('event_id').notNullable().references('id').inTable(`${schema}.events`).onDelete('CASCADE');
      t.uuid('resource_id').notNullable();
      t.uuid('audience').notNullable();
      t.timestamp('occurrence_time', { useTz: true }).notNullable();
      t.bigInteger('seq').notNullable();
      t.primary(['event_id', 'resource_id']);
    });
    await knex.raw(
      'create index event_resources_feed on ??.event_resources (resource_id, audience, occurrence_time desc, seq desc) include (event_id)',
      [schema],
    );
    await knex.raw(
      `insert into ??.event_resources (event_id, resource_id, audience, occurrence_time, seq)
       select distinct e.id, r.id, e.audience, e.occurrence_time, e.seq
       from ??.events e
       cross join lateral (select e.origin_id as id union select (t ->> 'id')::uuid from jsonb_array_elements(e.tagged) t) r`,
      [schema, schema],
    );
  },
};
