import { startTestFleet, type TestFleet } from '@fieldcast/runtime/testing';
import { appEvent } from '../src/domain/app-events.js';
import { eventsService } from '../src/definition.js';
import { EventStore, feedQuery, type FeedScope } from '../src/store.js';

/**
 * Every feed query is a keyset range scan of an index that yields the feed
 * order, on PGlite here and on PostgreSQL in the integration suite, with the plan for the values
 * given and with the generic plan a prepared statement may settle on. The tables are tiny, so
 * sequential and bitmap scans (which PostgreSQL prefers for a handful of rows, depending on the
 * statistics left by earlier tests) are priced out to ask "can the index serve it"; sorts are not, so an index
 * that cannot give the order shows as a Sort under a range. bench/events.bench.ts checks the same at 1,000,000
 * events with default planner settings.
 */
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** Scans of `index` under `node` reached without passing a Limit. */
function unlimitedRanges(node: PlanNode, index: string): PlanNode[] {
  return (node.Plans ?? []).flatMap((child) =>
    child['Node Type'] === 'Limit' ? [] : child['Index Name'] === index ? [child] : unlimitedRanges(child, index),
  );
}

const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`);

/**
 * The plan of a feed statement as the service runs it: prepared, then executed with a custom
 * plan (for the values given) or the generic one PostgreSQL may switch to after five runs of a
 * named statement (packages/db, `prepared`).
 */
async function feedPlan(
  fleet: TestFleet,
  scope: FeedScope,
  viewer: string,
  page: { limit: number; after?: string; before?: string },
  kind: 'custom' | 'generic',
): Promise<PlanNode[]> {
  const { text, values } = feedQuery(scope, viewer, page);
  return fleet.db.knex.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    await trx.raw('set local enable_bitmapscan = off');
    await trx.raw(`set local plan_cache_mode = force_${kind}_plan`);
    await trx.raw(`prepare feed_plan as ${text}`);
    try {
      const rows = (await trx.raw(`explain (format json) execute feed_plan(${values.map(literal).join(', ')})`)).rows;
      const json = rows[0]['QUERY PLAN'];
      return nodes((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan);
    } finally {
      await trx.raw('deallocate feed_plan');
    }
  });
}
let fleet: TestFleet;
let viewer: string;
let anchor: string;
const resource = '6f1c3b1e-8a3c-4a8e-9a55-1d8f0e2c7b10';

beforeAll(async () => {
  fleet = await startTestFleet([eventsService]);
  // On PostgreSQL the tables outlive earlier test files; their rows would shape the statistics.
  await fleet.reset();
  const account = await fleet.account('planner');
  viewer = account.id;
  const store = new EventStore(fleet.db, fleet.deps('events').outbox!);
  const me = { id: account.id, handle: account.handle, name: 'planner' };
  for (let i = 0; i < 20; i++) {
    const e = appEvent(
      { app: me.handle, namespace: 'a/b', message: '{}', tagged: [{ namespace: 'r', id: resource }] },
      me,
      crypto.randomUUID(),
      new Date(Date.UTC(2026, 0, 1, 0, i)),
    );
    await store.insert(e);
    anchor = e.id;
  }
  // Other applications' events in both audiences: public ones (platform products, say) and ones
  // about the viewer's resources. Without them the audience-only index would serve the app feed's
  // ranges as well as the app index, and the planner's pick between the two would be a coin toss
  // decided by leftover statistics; with them only (app_id, audience, ...) is a range of the app's
  // own events, as it is in any real deployment.
  const area = { id: crypto.randomUUID(), handle: 'agriculture', name: 'agriculture' };
  for (let i = 0; i < 400; i++) {
    const e = appEvent(
      { app: area.handle, namespace: 'a/b', message: '{}', tagged: [{ namespace: 'r', id: resource }] },
      area,
      crypto.randomUUID(),
      new Date(Date.UTC(2026, 0, 2, 0, i)),
    );
    await store.insert({ ...e, ownerAccount: i % 2 === 0 ? viewer : null });
  }
  await fleet.db.knex.raw('analyze events.events');
  await fleet.db.knex.raw('analyze events.event_resources');
});
afterAll(async () => {
  await fleet.close();
});

const SCOPES: [string, () => FeedScope, string, string][] = [
  ['main', () => ({ kind: 'main' }), 'events_feed', 'audience ='],
  ['app', () => ({ kind: 'app', appId: viewer }), 'events_app_feed', 'app_id ='],
  ['resource', () => ({ kind: 'resource', resourceId: resource }), 'event_resources_feed', 'resource_id ='],
];

describe.each(SCOPES)('the %s feed', (_name, scope, index, key) => {
  it.each([
    ['first page', 'custom', {}],
    ['after a cursor', 'custom', { after: 'x' }],
    ['before a cursor', 'custom', { before: 'x' }],
    ['first page', 'generic', {}],
    ['after a cursor', 'generic', { after: 'x' }],
    ['before a cursor', 'generic', { before: 'x' }],
  ] as const)(
    '%s, %s plan: two range scans of the feed index, cut at the cursor, never sorted or scanned whole',
    async (_label, kind, cursor) => {
      const page: { limit: number; after?: string; before?: string } = {
        limit: 10,
        ...Object.fromEntries(Object.entries(cursor).map(([k]) => [k, anchor])),
      };
      const plan = await feedPlan(fleet, scope(), viewer, page, kind);
      const types = plan.map((n) => n['Node Type']);
      expect(types).not.toContain('Seq Scan');
      expect(types.filter((t) => t.startsWith('Bitmap'))).toEqual([]);
      // Every index scan is bounded (no full index walks), and a sort, if any, orders rows that a
      // Limit already cut (at most 2 x limit), never a range itself.
      for (const n of plan.filter((n) => n['Node Type'].startsWith('Index'))) expect(n['Index Cond']).toBeDefined();
      for (const sort of plan.filter((n) => n['Node Type'] === 'Sort')) expect(unlimitedRanges(sort, index)).toEqual([]);
      const ranges = plan.filter((n) => n['Index Name'] === index);
      expect(ranges).toHaveLength(2);
      for (const range of ranges) {
        expect(range['Index Cond']).toContain(key);
        expect(range['Index Cond']).toContain('audience =');
        if (page.after || page.before) expect(range['Index Cond']).toMatch(/ROW\(occurrence_time, seq\) [<>] ROW/);
      }
    },
  );
});
