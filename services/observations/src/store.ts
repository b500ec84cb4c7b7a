import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';
import type { Knex } from 'knex';
import { topicFor } from '@fieldcast/bus';
import { createTransaction, type Database, type Outbox, type PreparedStatement } from '@fieldcast/db';
import { type DocumentCache, documentCache } from './document-cache.js';
import type { ObservationSetSummary } from '@fieldcast/schemas';
import { dayOf, type NewObservationSet, summaryAt } from './domain/observation-sets.js';
import type { Period } from './domain/period.js';
import { SummaryPageCache, type SummaryPage } from './summary-page-cache.js';

export type { SummaryPage } from './summary-page-cache.js';

export const AREA = 'observations';
export const SETS_TOPIC = topicFor(AREA, 'sets');
/** The resource name of the events' type, `fieldcast.observation-set.published` (docs/architecture.md §5). */
const KIND = 'observation-set';
const SET_NAMESPACE = `${AREA}/sets`;

export interface PageRequest {
  period: Period;
  limit: number;
  /** the id of the set to continue after (older sets only) */
  before?: string;
}

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

/** A stored document: gzip (RFC 1952) of its JSON text in UTF-8. */
export class StoredDocument {
  constructor(
    readonly gzip: Buffer,
    private readonly id: string,
    private readonly accountId: string,
    private readonly texts: DocumentCache,
  ) {}

  /** The JSON text's bytes: kept from an earlier read, or decompressed off the event loop (libuv's pool). */
  async text(): Promise<Buffer> {
    const kept = this.texts.get(this.id);
    if (kept) return kept.bytes;
    const text = await gunzipped(this.gzip);
    this.texts.set(this.id, { accountId: this.accountId, bytes: text });
    return text;
  }
}

/**
 * Day rows per INSERT of a publish. A statement carries at most 65,535 bound parameters
 * (PostgreSQL's protocol; PGlite alike) and a day row binds 6, while a body within the 1 MB limit
 * can hold some 12,000 days (daily observations over 33 years): a set's rows go in statements of
 * at most this many, all in the publish's transaction (spec 4.8).
 */
const DAY_ROWS_PER_INSERT = 1_000;

/** A PostgreSQL array literal of integers, sent as one text parameter (knex would spread a JS array). */
const bigintArray = (values: readonly bigint[]) => `{${values.join(',')}}`;

/**
 * The observations schema; nothing else touches it (docs/architecture.md §4). Each account reads
 * only its own sets: another account's id reads as an unknown one (docs/interface.md §1,
 * ownership).
 */
/** The gzipped documents one process keeps (docs/decisions/0153-observation-document-cache.md): about a thousand 1 MB sets. */
export const DOCUMENT_CACHE_BYTES = 64 * 1_048_576;
/** The texts of documents read by clients that take no gzip, which one process keeps: about thirty 1 MB sets. */
export const TEXT_CACHE_BYTES = 32 * 1_048_576;
/** The list pages one process keeps (docs/decisions/0154-observation-list-cache.md): about 700 pages of 100 summaries. */
const PAGE_CACHE_CHARACTERS = 16 * 1_048_576;

interface ObservationSetStoreOptions {
  /**
   * whether this process is the database's only writer (the embedded PGlite): a kept list page is
   * then current until this process publishes; otherwise each list reads the account's version
   */
  soleWriter?: boolean;
  /** the clock that stamps each set's creationTime; the system's by default */
  now?: () => Date;
}

export class ObservationSetStore {
  private readonly knex: Knex;
  private readonly cache = documentCache(DOCUMENT_CACHE_BYTES);
  private readonly texts = documentCache(TEXT_CACHE_BYTES);
  private readonly pages = new SummaryPageCache(PAGE_CACHE_CHARACTERS);
  private readonly soleWriter: boolean;
  private readonly now: () => Date;
  /** version reads waiting for the end of this turn of the event loop, by account */
  private readonly versionReads = new Map<string, Promise<string>>();

  constructor(
    private readonly db: Database,
    private readonly outbox: Outbox,
    options: ObservationSetStoreOptions = {},
  ) {
    this.knex = db.knex;
    this.soleWriter = options.soleWriter ?? false;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Stores the set, the index of its observation days and its `published` event in one
   * transaction (docs/architecture.md §5), and returns its summary.
   *
   * Lists are newest created first by insertion order (seq), so the creation time is read only
   * once the transaction holds the account's version row, which every publish of the account
   * updates: publishes of one account take their time and their seq in the same order, however
   * long each took to compress its document (spec 4.8, docs/decisions/0210-observation-set-creation-order.md).
   */
  async publish(set: NewObservationSet): Promise<ObservationSetSummary> {
    // The fastest level: a publish pays it once, and sensor series compress well at any level.
    const document = await gzipped(set.document, { level: constants.Z_BEST_SPEED });
    // A create's transaction: it keeps the answer for an Idempotency-Key too (docs/interface.md §1).
    const summary = await createTransaction(this.knex, async (trx) => {
      // Every replica's kept pages of the account are out of date from this commit on.
      await trx.raw(
        `insert into ${AREA}.account_versions (account_id, version) values (?, 1)
         on conflict (account_id) do update set version = account_versions.version + 1`,
        [set.accountId],
      );
      const createdAt = this.now();
      const summary = summaryAt(set, createdAt);
      const [row] = (await trx
        .withSchema(AREA)
        .table('observation_sets')
        .insert({
          id: set.id,
          account_id: set.accountId,
          created_at: createdAt,
          earliest_us: set.earliest.toString(),
          latest_us: set.latest.toString(),
          summary: JSON.stringify(summary),
          // As base64 text both ways: PGlite converts bytea to and from JavaScript in hex, about
          // ten times slower for a gzipped megabyte (docs/decisions/0150-observation-sets-stored-as-sent.md).
          document_gz: trx.raw(`decode(?, 'base64')`, [document.toString('base64')]),
        })
        .returning('seq')) as { seq: string | number }[];
      const days = set.days.map((d) => ({
        account_id: set.accountId,
        day: d.day,
        set_seq: row!.seq,
        first_us: d.times[0]!.toString(),
        last_us: d.times[d.times.length - 1]!.toString(),
        times_us: bigintArray(d.times),
      }));
      for (let i = 0; i < days.length; i += DAY_ROWS_PER_INSERT) {
        await trx
          .withSchema(AREA)
          .table('observation_days')
          .insert(days.slice(i, i + DAY_ROWS_PER_INSERT));
      }
      await this.outbox.add(trx, SETS_TOPIC, {
        area: AREA,
        resource: KIND,
        action: 'published',
        subject: set.id,
        time: createdAt,
        data: { account: set.accountId, resource: summary, related: [{ namespace: SET_NAMESPACE, id: set.id }] },
      });
      return summary;
    });
    this.pages.invalidate(set.accountId);
    return summary;
  }

  /**
   * The document of the account's set as it was sent; null for an unknown id and another
   * account's alike. Reads are prepared statements (Database.prepared): parsed once per
   * connection on PostgreSQL, and past knex's query builder on PGlite.
   */
  async document(accountId: string, id: string): Promise<StoredDocument | null> {
    const cached = this.cache.get(id);
    if (cached) return cached.accountId === accountId ? new StoredDocument(cached.bytes, id, accountId, this.texts) : null;
    const [row] = await this.db.prepared<{ document: string }>({
      name: 'observations_document',
      text: `select encode(document_gz, 'base64') as document from ${AREA}.observation_sets where id = $1 and account_id = $2`,
      values: [id, accountId],
    });
    if (!row) return null;
    // Node's base64 decoder skips the line breaks PostgreSQL's encoder puts every 76 characters.
    const gzip = Buffer.from(row.document, 'base64');
    this.cache.set(id, { accountId, bytes: gzip });
    return new StoredDocument(gzip, id, accountId, this.texts);
  }

  /**
   * One page of the account's sets, newest first: those with an observation in the period, older
   * than the set `before` when given (a keyset cursor on the insertion order,
   * docs/decisions/0152-observation-period-index.md). Null when `before` is no set of the
   * account's.
   */
  async list(accountId: string, page: PageRequest): Promise<SummaryPage | null> {
    // A shared database: the page is kept under the account's version, read first, so a publish
    // by any replica that committed before this list started sends it to the database.
    const key = this.soleWriter ? pageKey(page) : `${await this.version(accountId)}|${pageKey(page)}`;
    const cached = this.pages.get(accountId, key);
    if (cached) return cached;
    const token = this.pages.readStarted();
    const read = await this.read(accountId, page);
    // An unknown cursor is not kept: it may name a set published later.
    if (read) this.pages.fill(token, accountId, key, read);
    return read;
  }

  /**
   * The account's version (account_versions; 0 before its first publish). Lists of one account
   * that arrive within one turn of the event loop share one read, sent once they have all
   * arrived: each sees every publish that committed before it came.
   */
  private version(accountId: string): Promise<string> {
    let read = this.versionReads.get(accountId);
    if (!read) {
      read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.versionReads.delete(accountId);
        return this.readVersion(accountId);
      });
      this.versionReads.set(accountId, read);
    }
    return read;
  }

  private async readVersion(accountId: string): Promise<string> {
    const [row] = await this.db.prepared<{ version: string | number | bigint }>({
      name: 'observations_account_version',
      text: `select version from ${AREA}.account_versions where account_id = $1`,
      values: [accountId],
    });
    return row ? String(row.version) : '0';
  }

  private async read(accountId: string, page: PageRequest): Promise<SummaryPage | null> {
    let cursor: string | null = null;
    if (page.before !== undefined) {
      const [row] = await this.db.prepared<{ seq: number | bigint | string }>({
        name: 'observations_cursor',
        text: `select seq from ${AREA}.observation_sets where id = $1 and account_id = $2`,
        values: [page.before, accountId],
      });
      if (!row) return null;
      cursor = String(row.seq);
    }
    const rows = await this.db.prepared<{ id: string; summary: string }>(pageStatement(accountId, page, cursor));
    const shown = rows.slice(0, page.limit);
    return {
      page: shown.map((r) => r.summary).join(','),
      lastId: shown[shown.length - 1]?.id ?? null,
      more: rows.length > page.limit,
    };
  }
}

/** A page request as a cache key: the period's instants, the limit and the cursor in canonical lower case (RFC 9562 section 4). */
const pageKey = ({ period, limit, before }: PageRequest) =>
  `${period.start ?? ''}/${period.end ?? ''}/${limit}/${before?.toLowerCase() ?? ''}`;

/**
 * How many rows a page's statement reads: the page's limit plus one, rounded up to one of a few
 * sizes and written into the text rather than bound. PostgreSQL prices a bound LIMIT as a share
 * of the table, so a named statement would be planned afresh on every run (about 0.9 ms here);
 * with a few sizes the statements per connection stay few and their generic plans are used
 * (docs/decisions/0029-feed-reads-at-scale.md). The page is cut to its own limit in Node.
 */
const BATCHES = [11, 26, 51, 101, 251, 501, 1001];
function batchOf(limit: number): number {
  const batch = BATCHES.find((n) => n > limit);
  if (batch === undefined || !Number.isInteger(limit) || limit < 1) throw new RangeError(`page limit ${limit} is not 1 to 1000`);
  return batch;
}

/**
 * The statement of one page: at least one row more than the page, to know whether more remain.
 * Rows of stored summary text, joined in Node: letting the database join them (a window and
 * ordered aggregates) cost PGlite five times as much for a page of 100. The text depends only on
 * whether there is a period and a cursor, and on the row count, which name it.
 */
function pageStatement(accountId: string, page: PageRequest, cursor: string | null): PreparedStatement {
  const values: unknown[] = [accountId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const { start, end } = page.period;
  const batch = batchOf(page.limit);
  let text: string;
  let name: string;
  if (start === null && end === null) {
    name = `observations_page_all_${cursor === null ? 'first' : 'before'}_${batch}`;
    text = `select id, summary from ${AREA}.observation_sets where account_id = $1${cursor === null ? '' : ` and seq < ${param(cursor)}`}
      order by seq desc limit ${batch}`;
  } else {
    // The period's days bound the index range; a day row matches when its first or last time
    // lies in the period, or, when it spans the whole period, one of its times does.
    const from = start ?? -(2n ** 62n);
    const to = end ?? 2n ** 62n;
    const firstDay = param(start === null ? -(2 ** 31) : dayOf(from));
    const lastDay = param(end === null ? 2 ** 31 - 1 : dayOf(to));
    const s = `${param(from.toString())}::bigint`;
    const e = `${param(to.toString())}::bigint`;
    name = `observations_page_period_${cursor === null ? 'first' : 'before'}_${batch}`;
    text = `select s.id, s.summary from ${AREA}.observation_sets s
      where s.seq in (
        select distinct d.set_seq from ${AREA}.observation_days d
        where d.account_id = $1 and d.day between ${firstDay} and ${lastDay}
          and d.first_us <= ${e} and d.last_us >= ${s}
          and (d.first_us >= ${s} or d.last_us <= ${e} or exists (select from unnest(d.times_us) t where t between ${s} and ${e}))
          ${cursor === null ? '' : `and d.set_seq < ${param(cursor)}`}
        order by d.set_seq desc limit ${batch})
      order by s.seq desc`;
  }
  return { name, text, values };
}
