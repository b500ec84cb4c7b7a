import type { Knex } from 'knex';
import { topicFor } from '@fieldcast/bus';
import type { Outbox } from '@fieldcast/db';
import { dayOf, type NewObservationSet } from './domain/observation-sets.js';
import type { Period } from './domain/period.js';

export const AREA = 'observations';
export const SETS_TOPIC = topicFor(AREA, 'sets');
/** The resource name of the events' type, `fieldcast.observation-set.published` (docs/architecture.md §5). */
const KIND = 'observation-set';
const SET_NAMESPACE = `${AREA}/sets`;

/** A page of summaries, newest first, as stored JSON text; `more` when older sets remain. */
export interface SummaryPage {
  summaries: string[];
  /** the id of the page's last (oldest) set, the cursor of the next page */
  lastId: string | null;
  more: boolean;
}

export interface PageRequest {
  period: Period;
  limit: number;
  /** the id of the set to continue after (older sets only) */
  before?: string;
}

/** A PostgreSQL array literal of integers, sent as one text parameter (knex would spread a JS array). */
const bigintArray = (values: readonly bigint[]) => `{${values.join(',')}}`;

/**
 * The observations schema; nothing else touches it (docs/architecture.md §4). Each account reads
 * only its own sets: another account's id reads as an unknown one (docs/interface.md §1,
 * ownership).
 */
export class ObservationSetStore {
  constructor(
    private readonly knex: Knex,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Stores the set, the index of its observation days and its `published` event in one
   * transaction (docs/architecture.md §5).
   */
  async publish(set: NewObservationSet): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const [row] = (await trx
        .withSchema(AREA)
        .table('observation_sets')
        .insert({
          id: set.id,
          account_id: set.accountId,
          created_at: set.createdAt,
          earliest_us: set.earliest.toString(),
          latest_us: set.latest.toString(),
          summary: JSON.stringify(set.summary),
          document: set.document,
        })
        .returning('seq')) as { seq: string | number }[];
      await trx
        .withSchema(AREA)
        .table('observation_days')
        .insert(
          set.days.map((d) => ({
            account_id: set.accountId,
            day: d.day,
            set_seq: row!.seq,
            first_us: d.times[0]!.toString(),
            last_us: d.times[d.times.length - 1]!.toString(),
            times_us: bigintArray(d.times),
          })),
        );
      await this.outbox.add(trx, SETS_TOPIC, {
        area: AREA,
        resource: KIND,
        action: 'published',
        subject: set.id,
        time: set.createdAt,
        data: { account: set.accountId, resource: set.summary, related: [{ namespace: SET_NAMESPACE, id: set.id }] },
      });
    });
  }

  /** The document of the account's set as it was sent, JSON text; null for an unknown id and another account's alike. */
  async document(accountId: string, id: string): Promise<string | null> {
    const row: { document: string } | undefined = await this.knex
      .withSchema(AREA)
      .table('observation_sets')
      .select(this.knex.raw('document::text as document'))
      .where({ id, account_id: accountId })
      .first();
    return row?.document ?? null;
  }

  /**
   * One page of the account's sets, newest first: those with an observation in the period, older
   * than the set `before` when given (a keyset cursor on the insertion order,
   * docs/decisions/0152-observation-period-index.md). Null when `before` is no set of the
   * account's.
   */
  async list(accountId: string, page: PageRequest): Promise<SummaryPage | null> {
    let cursor: string | null = null;
    if (page.before !== undefined) {
      const row: { seq: string | number } | undefined = await this.knex
        .withSchema(AREA)
        .table('observation_sets')
        .select('seq')
        .where({ id: page.before, account_id: accountId })
        .first();
      if (!row) return null;
      cursor = String(row.seq);
    }
    const { start, end } = page.period;
    const values: unknown[] = [accountId];
    let sql: string;
    if (start === null && end === null) {
      sql = `select id, summary from ${AREA}.observation_sets where account_id = ?${cursor ? ' and seq < ?::bigint' : ''}
        order by seq desc limit ?`;
      if (cursor) values.push(cursor);
    } else {
      // The period's days bound the index range; a day row matches when its first or last time
      // lies in the period, or, when it spans the whole period, one of its times does.
      const from = start ?? -(2n ** 62n);
      const to = end ?? 2n ** 62n;
      const [s, e] = [from.toString(), to.toString()];
      sql = `select s.id, s.summary from ${AREA}.observation_sets s
        where s.seq in (
          select distinct d.set_seq from ${AREA}.observation_days d
          where d.account_id = ? and d.day between ? and ?
            and d.first_us <= ?::bigint and d.last_us >= ?::bigint
            and (d.first_us >= ?::bigint or d.last_us <= ?::bigint
              or exists (select from unnest(d.times_us) t where t between ?::bigint and ?::bigint))
            ${cursor ? 'and d.set_seq < ?::bigint' : ''}
          order by d.set_seq desc limit ?)
        order by s.seq desc`;
      values.push(start === null ? -(2 ** 31) : dayOf(from), end === null ? 2 ** 31 - 1 : dayOf(to), e, s, s, e, s, e);
      if (cursor) values.push(cursor);
    }
    values.push(page.limit + 1);
    const rows: { id: string; summary: string }[] = (await this.knex.raw(sql, values as Knex.RawBinding[])).rows;
    const shown = rows.slice(0, page.limit);
    return { summaries: shown.map((r) => r.summary), lastId: shown[shown.length - 1]?.id ?? null, more: rows.length > page.limit };
  }
}
