import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Outbox } from '@fieldcast/db';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { alertsService } from '../src/definition.js';
import type { RuleRecord } from '../src/domain/rules.js';
import type { TargetType } from '../src/schemas.js';
import { RuleStore, type TargetChange, TargetCopies } from '../src/store.js';

// The copy of fields and assets and the rules on them (docs/decisions/0270-alerts-area.md,
// 0465-the-order-of-a-targets-changes.md), written straight through the stores so that the test
// decides what each one sees. The races need transactions that overlap: PostgreSQL, which the
// integration suite runs this file on; on PGlite, one transaction at a time, they take turns.
const NOW = new Date('2026-06-15T10:20:00Z');
const t = useTestFleet([alertsService], { now: () => NOW });

const knex = (): Knex => t.fleet.db.knex;
const copies = () => {
  const deps = t.fleet.deps('alerts');
  return new TargetCopies(deps.db!.knex, deps.outbox as Outbox);
};

const change = (id: string, type: TargetType, action: TargetChange['action'], timeMs: number, lat = 42): TargetChange => ({
  target: { id, type, accountId: t.alice.id, centroid: { lat, lon: -93.5 } },
  action,
  timeMs,
});

const target = async (id: string) =>
  (await knex().withSchema('alerts').table('targets').where({ id }).first()) as { deleted: boolean; latitude: number } | undefined;
const ruleIds = async (targetId: string) =>
  ((await knex().withSchema('alerts').table('rules').where({ target_id: targetId }).select('id')) as { id: string }[]).map((r) => r.id);

const rule = (targetId: string, type: TargetType = 'field'): RuleRecord => ({
  id: randomUUID(),
  accountId: t.alice.id,
  description: '',
  target: { type, id: targetId },
  condition: { kind: 'frost', threshold: 0, hours: 48 },
});

/**
 * A rule store whose first event waits at `open`: its create or replace has written the rule and
 * holds its transaction open until the test lets it go.
 */
function heldRules(): { store: RuleStore; reached: Promise<void>; open: () => void } {
  const deps = t.fleet.deps('alerts');
  const outbox = deps.outbox as Outbox;
  let reach!: () => void;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held = {
    async add(...args: Parameters<Outbox['add']>) {
      reach();
      await gate;
      return outbox.add(...args);
    },
  } as unknown as Outbox;
  return { store: new RuleStore(deps.db!.knex, held, () => NOW), reached, open };
}

/** Lets `work` run until it is done or has waited a while on a lock, and resolves either way. */
async function settledOrWaiting(work: Promise<unknown>): Promise<void> {
  let done = false;
  void work.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 50 && !done; i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a field deleted while a rule on it is written (docs/decisions/0464-rules-take-turns-with-their-targets-deletion.md)', () => {
  it('deletes a rule whose create commits after the deletion began', async () => {
    const field = randomUUID();
    await copies().apply(change(field, 'field', 'created', NOW.getTime() - 60_000));
    const { store, reached, open } = heldRules();
    const created = store.create(rule(field));
    await reached;
    const deletion = copies().apply(change(field, 'field', 'deleted', NOW.getTime()));
    await settledOrWaiting(deletion);
    open();
    await Promise.allSettled([created, deletion]);
    await deletion;
    // Either the create came first and the deletion took its rule, or it came second and was refused.
    expect(await ruleIds(field)).toEqual([]);
    expect((await target(field))?.deleted).toBe(true);
  });

  it('deletes a rule made before the copy held its field, whose field came and went while it was written', async () => {
    const field = randomUUID();
    const { store, reached, open } = heldRules();
    const created = store.create(rule(field));
    await reached;
    const deletion = (async () => {
      await copies().apply(change(field, 'field', 'created', NOW.getTime() - 60_000));
      await copies().apply(change(field, 'field', 'deleted', NOW.getTime()));
    })();
    await settledOrWaiting(deletion);
    open();
    await Promise.allSettled([created, deletion]);
    await deletion;
    expect(await ruleIds(field)).toEqual([]);
  });

  it('deletes a rule moved onto an asset while the asset was deleted', async () => {
    const [field, asset] = [randomUUID(), randomUUID()];
    await copies().apply(change(field, 'field', 'created', NOW.getTime() - 60_000));
    await copies().apply(change(asset, 'asset', 'created', NOW.getTime() - 60_000));
    const deps = t.fleet.deps('alerts');
    const made = (await new RuleStore(deps.db!.knex, deps.outbox as Outbox, () => NOW).create(rule(field)))!;
    const { store, reached, open } = heldRules();
    const replaced = store.replace({ ...made, target: { type: 'asset', id: asset } });
    await reached;
    const deletion = copies().apply(change(asset, 'asset', 'deleted', NOW.getTime()));
    await settledOrWaiting(deletion);
    open();
    await Promise.allSettled([replaced, deletion]);
    await deletion;
    expect(await ruleIds(asset)).toEqual([]);
  });
});

describe('the order of a field’s or asset’s changes (docs/decisions/0465-the-order-of-a-targets-changes.md)', () => {
  it.each(['field', 'asset'] as const)(
    'keeps a %s deleted when its creation or an update of the same millisecond comes again',
    async (type) => {
      const id = randomUUID();
      const at = NOW.getTime();
      await copies().apply(change(id, type, 'created', at));
      await copies().apply(change(id, type, 'updated', at, 43));
      await copies().apply(change(id, type, 'deleted', at));
      await copies().apply(change(id, type, 'created', at));
      expect((await target(id))?.deleted).toBe(true);
      await copies().apply(change(id, type, 'updated', at, 43));
      expect((await target(id))?.deleted).toBe(true);
    },
  );

  it('keeps a field deleted whatever the time of a later change: a deletion is its last', async () => {
    const id = randomUUID();
    await copies().apply(change(id, 'field', 'created', NOW.getTime()));
    await copies().apply(change(id, 'field', 'deleted', NOW.getTime()));
    await copies().apply(change(id, 'field', 'updated', NOW.getTime() + 1000, 43));
    expect(await target(id)).toMatchObject({ deleted: true, latitude: 42 });
  });

  it('takes a deletion stamped before the update applied (another replica’s clock), and deletes the rules', async () => {
    const id = randomUUID();
    await copies().apply(change(id, 'field', 'created', NOW.getTime()));
    const deps = t.fleet.deps('alerts');
    await new RuleStore(deps.db!.knex, deps.outbox as Outbox, () => NOW).create(rule(id));
    await copies().apply(change(id, 'field', 'deleted', NOW.getTime() - 5));
    expect((await target(id))?.deleted).toBe(true);
    expect(await ruleIds(id)).toEqual([]);
  });

  it('keeps an update when the creation of the same millisecond comes again', async () => {
    const id = randomUUID();
    await copies().apply(change(id, 'field', 'created', NOW.getTime()));
    await copies().apply(change(id, 'field', 'updated', NOW.getTime(), 43));
    await copies().apply(change(id, 'field', 'created', NOW.getTime()));
    expect((await target(id))?.latitude).toBe(43);
  });
});
