import type { Migration } from '@fieldcast/db';

/**
 * The statusMessage each release paused a subscription with after a 410 Gone, as it stored it:
 * written out here, since a migration imports nothing from src/ and these are what rows hold.
 */
const GONE_MESSAGES = [
  'paused: the URL answered 410 Gone, so nothing more is sent; retry the dead letter to resume',
  'paused: the URL answered 410 Gone, so nothing more is sent to it; retry the dead letter it made (of this or another of your subscriptions to the URL) to resume them',
];

/**
 * Why a paused subscription is paused, a fact of its own beside the message its owner reads
 * (docs/decisions/0494-why-a-subscription-is-paused-is-a-fact-of-its-own.md): `gone`, a 410 Gone
 * answered to it or to another of its account's subscriptions to the URL, which a retry at the
 * URL resumes together (docs/decisions/0457-410-gone-retires-the-url-for-the-account.md), or
 * `dead_letters`, its run of dead letters; null for a subscription that is not paused. Rows paused
 * before it are given theirs from the message they were paused with, the only record of it until
 * now: a 410's wordings, else dead letters, the one other way a subscription was ever paused.
 * Only added (docs/decisions/0419-migrations-keep-the-previous-release-working.md).
 */
export const pausedByMigration: Migration = {
  name: '013_paused_by',
  async up(knex, schema) {
    await knex.raw("alter table ??.subscriptions add column paused_by text check (paused_by in ('gone', 'dead_letters'))", [schema]);
    await knex.raw(
      `update ??.subscriptions set paused_by = case when status_message in (${GONE_MESSAGES.map(() => '?').join(', ')}) then 'gone' else 'dead_letters' end
       where status = 'paused'`,
      [schema, ...GONE_MESSAGES],
    );
  },
};
