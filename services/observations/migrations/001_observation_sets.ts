import type { Migration } from '@fieldcast/db';

/**
 * Observation sets (docs/interface.md §8; docs/decisions/0150-observation-sets-stored-as-sent.md,
 * 0152-observation-period-index.md). Plain SQL that PostgreSQL 15 and PGlite both run.
 */
export const observationSetsMigration: Migration = {
  name: '001_observation_sets',
  async up(knex, schema) {
    // `seq` orders an account's sets newest first and is the list's keyset. `document_gz` is the
    // JSON text of the body as sent, gzipped by the service: the read-back is the same text (not
    // `jsonb`, which reorders keys), a gzip-accepting client gets the stored bytes as they are,
    // and a 1 MB document is tens of kilobytes to read. `summary` is the stored summary's JSON,
    // so a list page is a join of stored text.
    await knex.raw(`create table "${schema}".observation_sets (
      seq bigint generated always as identity primary key,
      id uuid not null unique,
      account_id uuid not null,
      created_at timestamptz not null,
      earliest_us bigint not null,
      latest_us bigint not null,
      summary text not null,
      document_gz bytea not null
    )`);
    // Already compressed: PostgreSQL need not try again (TOAST storage EXTERNAL).
    await knex.raw(`alter table "${schema}".observation_sets alter column document_gz set storage external`);
    await knex.raw(`create index observation_sets_account_seq on "${schema}".observation_sets (account_id, seq)`);
    // One row per set and UTC day with observations: that day's distinct observation times
    // (microseconds since the epoch, ascending), its first and last. A period reads the rows of
    // its days and never a document.
    await knex.raw(`create table "${schema}".observation_days (
      account_id uuid not null,
      day integer not null,
      set_seq bigint not null references "${schema}".observation_sets (seq) on delete cascade,
      first_us bigint not null,
      last_us bigint not null,
      times_us bigint[] not null,
      primary key (account_id, day, set_seq)
    )`);
    await knex.raw(`create index observation_days_set on "${schema}".observation_days (set_seq)`);
  },
};
