/**
 * Events feed reads at scale (docs/decisions/0029-feed-reads-at-scale.md). Run:
 *   npx -y pnpm@10 exec tsx bench/events.bench.ts
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/fieldcast_bench;
 * the database is created if missing and is never the integration suite's, whose setup drops
 * schemas). Loads 1,000,000 events once (BENCH_RELOAD=1 to load again), starts the events app
 * on an ephemeral port, checks every feed statement's plans (custom and generic) with EXPLAIN at this size, then measures
 * with autocannon (a separate process) the first and a deep cursor page of the main, app and
 * resource feeds, each as a ratio to /healthz throughput measured in the same run: rounds of
 * /healthz, then the first and the deep page in alternating order (BENCH_ROUNDS, default 4;
 * BENCH_SECONDS each, default 3), medians of the per-round ratios. Target: every ratio >= 0.5, and each deep page
 * no slower than its first.
 */
import { InProcessTransport } from '../packages/bus/src/index.js';
import { openDatabase, type Database } from '../packages/db/src/index.js';
import { createLogger } from '../packages/kit/src/index.js';
import { FleetEnv, IdentityStore, limitsFromEnv, parseEnv, startServices } from '../packages/runtime/src/index.js';
import { basicAuthHeader } from '../packages/runtime/src/testing.js';
import { PUBLIC_AUDIENCE } from '../packages/ids/src/index.js';
import { FEED_ENTRY_SQL } from '../services/events/migrations/003_feed_entries.js';
import { areaAppId } from '../services/events/src/domain/apps.js';
import { eventsService } from '../services/events/src/definition.js';
import { feedQuery, type FeedScope } from '../services/events/src/store.js';
import { requestsPerSecond } from './autocannon.js';

const N = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fieldcast_bench';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = 10;
/** A v4-shaped UUID from an md5 digest: the API's UUID schema checks version and variant bits. */
const v4 = (text: string) =>
  `(substr(md5(${text}), 1, 12) || '4' || substr(md5(${text}), 14, 3) || '8' || substr(md5(${text}), 18, 15))::uuid`;
const PRODUCT = v4("'product0'");

async function ensureDatabase(): Promise<void> {
  const target = new globalThis.URL(URL);
  const name = target.pathname.slice(1);
  const admin = await openDatabase({ url: Object.assign(new globalThis.URL(URL), { pathname: '/postgres' }).toString() });
  const exists = (await admin.knex.raw('select 1 from pg_database where datname = ?', [name])).rows.length;
  if (!exists) await admin.knex.raw(`create database "${name}"`);
  await admin.close();
}

/**
 * 40% public platform frames (each tagged with one of 8 products), 1% the bench account's own
 * (half consumed field events, half its application's), the rest spread over 1,000 other
 * accounts. Pairs of events share an occurrenceTime, so the seq tie-break is exercised.
 */
async function load(client: Sql, me: string): Promise<void> {
  const t0 = Date.now();
  const indexes: { indexdef: string; indexname: string }[] = (
    await client.query(
      `select indexname, indexdef from pg_indexes where schemaname = 'events' and indexname in ('events_feed', 'events_app_feed', 'event_resources_feed')`,
    )
  ).rows;
  await client.query('truncate events.event_resources, events.events');
  for (const ix of indexes) await client.query(`drop index events."${ix.indexname}"`);
  const platform = areaAppId('platform');
  const agriculture = areaAppId('agriculture');
  await client.query(
    `insert into events.events (id, app, app_id, origin_namespace, origin_id, namespace, status, message, creation_time, occurrence_time, expiration_time, tagged, owner_account, entry)
     select e.*, ${FEED_ENTRY_SQL} from (select gen_random_uuid() as id,
       case when k.pub then 'platform' when i % 2 = 0 then 'agriculture' else 'bench-app' end as app,
       case when k.pub then $2::uuid when i % 2 = 0 then $3::uuid else k.owner end as app_id,
       case when k.pub then 'platform/frames' else 'agriculture/fields' end as origin_namespace,
       k.origin as origin_id,
       case when k.pub then 'platform/frames/published' else 'agriculture/fields/updated' end as namespace,
       'inactive' as status,
       case when k.pub then 'Frame {} was published (with {})' else 'Field {} was updated' end as message,
       k.t as creation_time, k.t as occurrence_time, null::timestamptz as expiration_time,
       case when k.pub then jsonb_build_array(jsonb_build_object('namespace', 'platform/frames', 'id', k.origin), jsonb_build_object('namespace', 'platform/products', 'id', ${v4("'product' || (i % 20)")}))
            else jsonb_build_array(jsonb_build_object('namespace', 'agriculture/fields', 'id', k.origin)) end as tagged,
       k.owner as owner_account
     from generate_series(1, $1::int) i
     cross join lateral (select
       i % 10 < 4 as pub,
       case when i % 10 < 4 then null when i % 100 = 4 then $4::uuid else ${v4("'account' || (i % 1000)")} end as owner,
       case when i % 10 < 4 then ${v4("'frame' || i")} else ${v4("'field' || (i % 5000)")} end as origin,
       timestamptz '2020-01-01T00:00:00Z' + (i / 2) * interval '1 minute' as t) k
     order by i) e`,
    [N, platform, agriculture, me],
  );
  await client.query(
    `insert into events.event_resources (event_id, resource_id, audience, occurrence_time, seq)
     select e.id, (t ->> 'id')::uuid, e.audience, e.occurrence_time, e.seq from events.events e cross join jsonb_array_elements(e.tagged) t`,
  );
  for (const ix of indexes) await client.query(ix.indexdef);
  await client.query('vacuum analyze events.events');
  await client.query('vacuum analyze events.event_resources');
  console.log(`loaded ${N.toLocaleString('en')} events in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodes = (p: PlanNode): PlanNode[] => [p, ...(p.Plans ?? []).flatMap(nodes)];
const unlimited = (p: PlanNode, index: string): PlanNode[] =>
  (p.Plans ?? []).flatMap((c) => (c['Node Type'] === 'Limit' ? [] : c['Index Name'] === index ? [c] : unlimited(c, index)));

const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`);

/**
 * The same rules as services/events/test/feed-plans.test.ts, at full size and default planner
 * settings, for the plan of these values and for the generic plan that the service's named
 * prepared statement may settle on after five runs.
 */
async function checkPlan(
  knex: Database['knex'],
  label: string,
  scope: FeedScope,
  me: string,
  page: { limit: number; after?: string },
): Promise<string[]> {
  const { text, values } = feedQuery(scope, me, page);
  const verdicts: string[] = [];
  for (const kind of ['custom', 'generic']) {
    const plan: PlanNode = await knex.transaction(async (trx) => {
      await trx.raw(`set local plan_cache_mode = force_${kind}_plan`);
      await trx.raw(`prepare feed_plan as ${text}`);
      const rows = (await trx.raw(`explain (format json) execute feed_plan(${values.map(literal).join(', ')})`)).rows;
      await trx.raw('deallocate feed_plan');
      return rows[0]['QUERY PLAN'][0].Plan;
    });
    const index = scope.kind === 'main' ? 'events_feed' : scope.kind === 'app' ? 'events_app_feed' : 'event_resources_feed';
    const all = nodes(plan);
    const ranges = all.filter((x) => x['Index Name'] === index);
    const problems = [
      ...all.filter((x) => x['Node Type'] === 'Seq Scan' || x['Node Type'].startsWith('Bitmap')).map((x) => x['Node Type']),
      ...all.filter((x) => x['Node Type'].startsWith('Index') && !x['Index Cond']).map((x) => `unbounded ${x['Index Name']}`),
      ...all
        .filter((x) => x['Node Type'] === 'Sort')
        .flatMap((s) => unlimited(s, index))
        .map(() => 'sorted range'),
      ...(ranges.length === 2 ? [] : [`${ranges.length} ranges of ${index}`]),
      ...(page.after && !ranges.every((r) => /ROW\(occurrence_time, seq\) < ROW/.test(r['Index Cond'] ?? ''))
        ? ['cursor not in the index condition']
        : []),
    ];
    const verdict = problems.length === 0 ? `2 x ${ranges[0]!['Node Type']} on ${index}` : `PROBLEM: ${problems.join(', ')}`;
    console.log(`plan ${label} (${kind}): ${verdict}`);
    verdicts.push(verdict);
  }
  return verdicts;
}

/** Plain SQL with $n placeholders through the service's own pool. */
interface Sql {
  query(text: string, params?: unknown[]): Promise<{ rows: any[] }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}
const sqlOf = (knex: Database['knex']): Sql => ({
  query: async (text, params = []) => knex.raw(text.replace(/\$(\d+)/g, '?'), reorder(text, params) as never),
});
/** knex binds `?` in order of appearance; a $n text may use a parameter twice or out of order. */
function reorder(text: string, params: unknown[]): unknown[] {
  return [...text.matchAll(/\$(\d+)/g)].map((m) => params[Number(m[1]) - 1]);
}

const rate = (url: string, auth?: string, seconds = DURATION_S) =>
  requestsPerSecond(url, { seconds, connections: CONNECTIONS, headers: { Authorization: auth } });

async function main(): Promise<void> {
  await ensureDatabase();
  const db = await openDatabase({ url: URL });
  const fleet = await startServices([{ definition: eventsService, port: 0 }], {
    db,
    transport: new InProcessTransport(),
    logger: createLogger({ level: 'silent' }),
    vendor: 'fieldcast',
    bodyLimit: '1mb',
    // Throughput is measured here, not the limiter: one account's request rate is unlimited
    // unless RATE_LIMIT_PER_SECOND says otherwise (docs/operations.md "Limits").
    limits: limitsFromEnv(parseEnv(FleetEnv, { RATE_LIMIT_PER_SECOND: '0', ...process.env })),
    host: '127.0.0.1',
    shutdownTimeoutMs: 2000,
  });
  const client = sqlOf(db.knex);
  try {
    const base = fleet.services[0]!.url;
    // The bench account lives with the data it owns, so a rerun reuses both.
    await client.query('create table if not exists public.bench_account (id uuid primary key, key text not null)');
    let account = (await client.query('select id, key from public.bench_account')).rows[0] as { id: string; key: string } | undefined;
    const loaded = Number((await client.query('select count(*) as n from events.events')).rows[0].n);
    if (!account || loaded !== N || process.env.BENCH_RELOAD) {
      const created = await new IdentityStore(db.knex).createAccount({ name: 'bench', handle: `bench-${Date.now().toString(36)}` });
      account = { id: created.account.id, key: created.applicationKey };
      await client.query('truncate public.bench_account');
      await client.query('insert into public.bench_account values ($1, $2)', [account.id, account.key]);
      await load(client, account.id);
    }
    const me = account.id;
    const auth = basicAuthHeader(me, account.key);
    const product = (await client.query(`select ${PRODUCT} as id`)).rows[0].id as string;
    // Deep cursors: an event about 90% of the way down each feed, found once by offset (slow, untimed).
    const deep = async (where: string, params: unknown[], depth: number, table = 'events.events', idCol = 'id') =>
      (
        await client.query(
          `select ${idCol} as id from ${table} where ${where} order by occurrence_time desc, seq desc offset ${depth} limit 1`,
          params,
        )
      ).rows[0].id as string;
    const publicCount = Number(
      (await client.query(`select count(*) as n from events.events where audience = $1`, [PUBLIC_AUDIENCE])).rows[0].n,
    );
    const productCount = Number(
      (await client.query(`select count(*) as n from events.event_resources where resource_id = $1`, [product])).rows[0].n,
    );
    const cases: { label: string; scope: FeedScope; path: string; after?: string }[] = [];
    const mainDeep = await deep('audience in ($1, $2)', [PUBLIC_AUDIENCE, me], Math.floor(publicCount * 0.9));
    const appDeep = await deep(
      'app_id = $1 and audience in ($2, $3)',
      [areaAppId('platform'), PUBLIC_AUDIENCE, me],
      Math.floor(publicCount * 0.9),
    );
    const resourceDeep = await deep(
      'resource_id = $1 and audience in ($2, $3)',
      [product, PUBLIC_AUDIENCE, me],
      Math.floor(productCount * 0.9),
      'events.event_resources',
      'event_id',
    );
    for (const [name, scope, path, after] of [
      ['main', { kind: 'main' }, '/events', mainDeep],
      ['app (platform)', { kind: 'app', appId: areaAppId('platform') }, '/apps/platform/events', appDeep],
      ['resource (product)', { kind: 'resource', resourceId: product }, `/resources/${product}/events`, resourceDeep],
    ] as [string, FeedScope, string, string][]) {
      cases.push({ label: `${name}, first page`, scope, path });
      cases.push({ label: `${name}, deep page`, scope, path: `${path}?after=${after}`, after });
    }
    console.log(
      `feeds: main ${(publicCount + N / 100).toLocaleString('en')} visible, platform app ${publicCount.toLocaleString('en')}, product ${productCount.toLocaleString('en')}; deep = 90% down`,
    );
    const verdicts = [];
    for (const c of cases) verdicts.push(...(await checkPlan(db.knex, c.label, c.scope, me, { limit: 10, after: c.after })));

    for (const c of cases) await rate(`${base}${c.path}`, auth, 1); // warm-up, also primes the auth cache
    await rate(`${base}/healthz`, undefined, 1);
    // The machine is shared, and load from other processes comes and goes: each round measures
    // /healthz, then a feed's first page, then its deep page, back to back, and every ratio is
    // the median over the rounds of that round's own ratio.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rows: { label: string; ratios: number[]; deepVsFirst?: number[] }[] = [];
    const healthz: number[] = [];
    for (let i = 0; i < cases.length; i += 2) {
      const first = cases[i]!,
        deepCase = cases[i + 1]!;
      const firstRow = { label: first.label, ratios: [] as number[] };
      const deepRow = { label: deepCase.label, ratios: [] as number[], deepVsFirst: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        const h = await rate(`${base}/healthz`);
        // Alternate which page goes first, so drift within a round (GC, autovacuum, other
        // processes) does not always fall on the same one.
        let f: number, d: number;
        if (round % 2 === 0) {
          f = await rate(`${base}${first.path}`, auth);
          d = await rate(`${base}${deepCase.path}`, auth);
        } else {
          d = await rate(`${base}${deepCase.path}`, auth);
          f = await rate(`${base}${first.path}`, auth);
        }
        healthz.push(h);
        firstRow.ratios.push(f / h);
        deepRow.ratios.push(d / h);
        deepRow.deepVsFirst.push(d / f);
      }
      rows.push(firstRow, deepRow);
    }
    console.log(
      `\n/healthz: ${Math.min(...healthz).toFixed(0)}-${Math.max(...healthz).toFixed(0)} req/s over the rounds; ${ROUNDS} rounds, ${CONNECTIONS} connections, ${DURATION_S} s per measurement`,
    );
    console.log('| feed read (limit 10) | ratio to /healthz, median | rounds | >= 0.5 | deep/first, median |');
    console.log('|---|---|---|---|---|');
    for (const r of rows) {
      const ratio = median(r.ratios);
      const deepVsFirst = r.deepVsFirst ? median(r.deepVsFirst).toFixed(2) : '';
      console.log(
        `| ${r.label} | ${ratio.toFixed(2)} | ${r.ratios.map((x) => x.toFixed(2)).join(' ')} | ${ratio >= 0.5 ? 'PASS' : '**FAIL**'} | ${deepVsFirst} |`,
      );
    }
    if (verdicts.some((v) => v.startsWith('PROBLEM'))) process.exitCode = 1;
  } finally {
    await fleet.stop();
  }
}

await main();
