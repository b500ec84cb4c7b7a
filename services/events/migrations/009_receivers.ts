import type { Migration } from '@fieldcast/db';

/**
 * The receiver, the URL a request goes to, keeps the rate its handshake allowed and the hold its
 * Retry-After asked for, for every subscription to it, whichever account made it
 * (docs/decisions/0422-the-receiver-is-the-url.md). A subscription names its receiver by its URL
 * as parsed, without the fragment, which no request carries; the same reading as the area's
 * `receiverOf`, written out here since a migration imports nothing from src/.
 *
 * What the subscriptions kept moves over: each URL gets the lowest rate and the latest hold of its
 * subscriptions. A URL with an active or paused subscription of no rate on record is marked as
 * never read (`rate_read_at` null): that subscription may have been validated before the rate was
 * kept, so its receiver is asked again rather than taken to allow any rate
 * (docs/decisions/0423-a-rate-never-read-is-asked-for.md).
 *
 * Only added, nothing taken away (docs/decisions/0419-migrations-keep-the-previous-release-working.md):
 * `receiver` stays nullable, since the previous release's replicas, running beside the new ones
 * during a rolling update, create subscriptions without it (the new dispatcher adopts those), and
 * `subscriptions.allowed_rate` and `held_until` are kept, since their claims read them. A later
 * migration drops the two and makes `receiver` NOT NULL once no replica of that release runs.
 */
export const receiversMigration: Migration = {
  name: '009_receivers',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('receivers', (t) => {
      t.text('url').primary();
      t.timestamp('held_until', { useTz: true });
      /** when a handshake last answered with the rate; null: never, so it is asked for again */
      t.timestamp('rate_read_at', { useTz: true });
      /** a replica asking for the rate holds this until its request ends; after a failed ask, the next waits until then */
      t.timestamp('rate_asked_until', { useTz: true });
    });
    // requests per minute; null: no limit
    await knex.raw('alter table ??.receivers add column allowed_rate integer check (allowed_rate > 0)', [schema]);
    await knex.raw('alter table ??.subscriptions add column receiver text', [schema]);

    const rows: { id: string; url: string; status: string; allowed_rate: number | null; held_until: Date | null }[] = await knex
      .withSchema(schema)
      .table('subscriptions')
      .select('id', 'url', 'status', 'allowed_rate', 'held_until');
    const receivers = new Map<string, { rate: number | null; held: Date | null; validated: boolean; unread: boolean; ids: string[] }>();
    for (const row of rows) {
      const url = new URL(row.url);
      url.hash = '';
      const receiver = receivers.get(url.href) ?? { rate: null, held: null, validated: false, unread: false, ids: [] };
      receiver.ids.push(row.id);
      if (row.status === 'active' || row.status === 'paused') {
        receiver.validated = true;
        if (row.allowed_rate === null) receiver.unread = true;
        else receiver.rate = Math.min(receiver.rate ?? row.allowed_rate, row.allowed_rate);
      }
      if (row.held_until && (!receiver.held || row.held_until > receiver.held)) receiver.held = row.held_until;
      receivers.set(url.href, receiver);
    }
    for (const [url, receiver] of receivers) {
      await knex
        .withSchema(schema)
        .table('receivers')
        .insert({
          url,
          allowed_rate: receiver.rate,
          held_until: receiver.held,
          rate_read_at: receiver.validated && !receiver.unread ? knex.fn.now() : null,
        });
      await knex.withSchema(schema).table('subscriptions').whereIn('id', receiver.ids).update({ receiver: url });
    }

    // Also finds the subscriptions still to adopt (`receiver is null`): a B-tree holds nulls.
    await knex.raw('create index subscriptions_receiver on ??.subscriptions (receiver)', [schema]);
  },
};
