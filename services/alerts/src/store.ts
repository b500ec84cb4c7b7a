import type { Knex } from 'knex';
import { topicFor } from '@fieldcast/bus';
import { type OutboxWriter, type Outbox, OwnedResourceStore, type OwnedResourceTable, type Precondition } from '@fieldcast/db';
import type { Point } from '@fieldcast/geo';
import { ValidationError } from '@fieldcast/kit';
import { HOUR_MS } from './domain/conditions.js';
import { checkRule, decidedAlike, type RuleRecord, ruleView, TARGET_NAMESPACES } from './domain/rules.js';
import type { Condition, TargetType } from './schemas.js';

export const AREA = 'alerts';
export const RULES_TOPIC = topicFor(AREA, 'rules');
/** The singular resource of the event types: `fieldcast.rule.created`, `fieldcast.rule.triggered` */
export const RULE_KIND = 'rule';

interface RuleRow {
  id: string;
  account_id: string;
  description: string;
  target_type: TargetType;
  target_id: string;
  condition: Condition | string;
}

const related = (r: RuleRecord) => [{ namespace: TARGET_NAMESPACES[r.target.type], id: r.target.id }];

const RULES: OwnedResourceTable<RuleRecord> = {
  area: AREA,
  table: 'rules',
  kind: RULE_KIND,
  topic: RULES_TOPIC,
  columns: ['id', 'account_id', 'description', 'target_type', 'target_id', 'condition'],
  fromRow(raw) {
    const row = raw as unknown as RuleRow;
    return {
      id: row.id,
      accountId: row.account_id,
      description: row.description,
      target: { type: row.target_type, id: row.target_id },
      condition: typeof row.condition === 'string' ? (JSON.parse(row.condition) as Condition) : row.condition,
    };
  },
  toRow(r) {
    return {
      id: r.id,
      account_id: r.accountId,
      description: r.description,
      target_type: r.target.type,
      target_id: r.target.id,
      condition: JSON.stringify(r.condition),
    };
  },
  snapshot: ruleView,
  related,
};

/**
 * A field's or asset's id locked for the rest of the transaction: `shared` by each write of a rule
 * on it, `alone` by its deletion, which so waits for the rules being written and holds them off
 * until it commits (docs/decisions/0464-rules-take-turns-with-their-targets-deletion.md). An
 * advisory lock on the id, not the copy's row: a rule may be written before the copy holds its
 * target at all.
 */
async function lockTarget(trx: Knex.Transaction, id: string, mode: 'shared' | 'alone'): Promise<void> {
  const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await trx.raw(`select ${lock}(hashtext(?))`, [`${AREA}.targets ${id}`]);
}

/** A field or asset as the alerts area keeps it (docs/decisions/0270-alerts-area.md). */
export interface TargetCopy {
  id: string;
  type: TargetType;
  accountId: string;
  centroid: Point;
}

/**
 * The alert rules, owned by accounts like fields (docs/interface.md, alerts). A rule may name a
 * field or asset the area's copy does not hold for its account (not arrived yet, or another
 * account's: the two look the same to the caller); it is evaluated only while the copy holds it
 * (docs/decisions/0270-alerts-area.md). Only what the caller's own copy says is refused: a
 * target of theirs that was deleted, or named with the other type.
 */
export class RuleStore extends OwnedResourceStore<RuleRecord> {
  constructor(
    private readonly db: Knex,
    outbox: Outbox,
    private readonly clock: () => Date,
  ) {
    super(db, outbox, clock, RULES);
  }

  override async create(record: RuleRecord, maxPerAccount?: number): Promise<RuleRecord | null> {
    checkRule(record, this.clock().getTime());
    return super.create(record, maxPerAccount);
  }

  override async replace(record: RuleRecord, precondition?: Precondition<RuleRecord>): Promise<RuleRecord | null> {
    const before = await this.get(record.accountId, record.id);
    if (!before) return null;
    checkRule(record, this.clock().getTime(), before);
    return super.replace(record, precondition);
  }

  /**
   * A rule given another target or condition starts again as a new one does, not holding and never
   * evaluated: what held under its old condition says nothing of the new one. A new description,
   * or the same condition spelt another way (decidedAlike), changes nothing the rule decides, so its
   * decision stands and no alert is sent again. Its count of changes
   * goes on, since an alert's event id is derived from it (evaluator.ts): counted from 0 again, the
   * next alert would take the id of the rule's first, which the events area already holds, and be
   * dropped.
   */
  protected override async changed(trx: Knex.Transaction, record: RuleRecord, before: RuleRecord): Promise<void> {
    if (decidedAlike(record, before)) return;
    await trx
      .withSchema(AREA)
      .table('rule_states')
      .where({ rule_id: record.id })
      .update({ holding: false, value: null, evaluated_at: new Date(0), changed_at: null });
  }

  /**
   * The rule's target is checked in the transaction that writes the rule, holding the target's
   * lock (lockTarget) from before it reads the copy until it commits: a deletion of the target
   * either is committed before the read, which then refuses the rule, or waits for the rule to be
   * committed and deletes it (docs/decisions/0464-rules-take-turns-with-their-targets-deletion.md).
   */
  protected override async admit(trx: Knex.Transaction, r: RuleRecord): Promise<void> {
    await lockTarget(trx, r.target.id, 'shared');
    const own = (await trx.withSchema(AREA).table('targets').where({ id: r.target.id, account_id: r.accountId }).first()) as
      { type: TargetType; deleted: boolean } | undefined;
    if (own && (own.deleted || own.type !== r.target.type))
      throw new ValidationError('target_does_not_exist', `The account has no ${r.target.type} ${r.target.id}`, [
        {
          path: 'target.id',
          message: own.deleted
            ? `the ${own.type} was deleted`
            : `is the id of one of the account's ${own.type}s, not of ${r.target.type === 'asset' ? 'an' : 'a'} ${r.target.type}`,
        },
      ]);
  }

  private targets() {
    return this.db.withSchema(AREA).table('targets');
  }

  /**
   * The rule's state as last decided (undefined before its first evaluation) and whether the
   * copy holds its target for its account; null for no rule of the account's.
   */
  async stateOf(accountId: string, id: string): Promise<{ rule: RuleRecord; state: StateRow | undefined; watching: boolean } | null> {
    const rule = await this.get(accountId, id);
    if (!rule) return null;
    const state = (await this.db.withSchema(AREA).table('rule_states').where({ rule_id: id }).first()) as StateRow | undefined;
    const target = await this.targets()
      .where({ id: rule.target.id, account_id: accountId, type: rule.target.type, deleted: false })
      .first();
    return { rule, state, watching: target !== undefined };
  }
}

export interface StateRow {
  rule_id: string;
  holding: boolean;
  value: number | null;
  transitions: number;
  evaluated_at: Date | string;
  changed_at: Date | string | null;
}

/** A change of a field or an asset, as its area's event tells it. */
export interface TargetChange {
  target: TargetCopy;
  action: 'created' | 'updated' | 'deleted';
  timeMs: number;
}

/**
 * Keeps the copy of fields and assets from their events (docs/decisions/0270-alerts-area.md), in
 * the order of docs/decisions/0465-the-order-of-a-targets-changes.md: a creation only where the
 * copy holds nothing of the id, an update only over an older or same-time change, a deletion
 * always, and nothing after a deletion. A deletion also deletes the rules watching it, each with
 * its `deleted` event, in one transaction.
 */
export class TargetCopies {
  constructor(
    private readonly knex: Knex,
    private readonly outbox: OutboxWriter,
  ) {}

  async apply(change: TargetChange): Promise<void> {
    const { target, action } = change;
    const deleted = action === 'deleted';
    const time = new Date(change.timeMs);
    await this.knex.transaction(async (trx) => {
      if (deleted) await lockTarget(trx, target.id, 'alone');
      const row = {
        id: target.id,
        type: target.type,
        account_id: target.accountId,
        latitude: target.centroid.lat,
        longitude: target.centroid.lon,
        deleted,
        event_time: time,
      };
      const upsert = trx.withSchema(AREA).table('targets').insert(row).onConflict('id');
      // A creation is an id's first change: held already, it is one delivered again. Field and
      // asset ids are never reused, so a deletion is an id's last, whatever its time (another
      // replica's clock may be behind). Two updates of the same millisecond apply in the order
      // delivered, the order they were written in.
      const applied: unknown[] =
        action === 'created'
          ? await upsert.ignore().returning('id')
          : await upsert
              .merge()
              .where('targets.deleted', false)
              .andWhere((q) => (deleted ? q : q.where('targets.event_time', '<=', time)))
              .returning('id');
      if (applied.length === 0 || !deleted) return;
      // Only the rules that watch it: its account's, naming its type. Another account's rule on the
      // id reads as one on an unknown id, and stays (docs/decisions/0270-alerts-area.md).
      const gone: Record<string, unknown>[] = await trx
        .withSchema(AREA)
        .table('rules')
        .where({ target_id: target.id, account_id: target.accountId, target_type: target.type })
        .delete()
        .returning([...RULES.columns]);
      for (const raw of gone) {
        const rule = RULES.fromRow(raw);
        await this.outbox.add(trx, RULES_TOPIC, {
          area: AREA,
          resource: RULE_KIND,
          action: 'deleted',
          subject: rule.id,
          time,
          data: { account: rule.accountId, resource: ruleView(rule), related: related(rule) },
        });
      }
    });
  }
}

/** A rule with what it watches, as an evaluation reads it. */
export interface WatchedRule {
  rule: RuleRecord;
  target: TargetCopy;
}

/** A rule's decision in one evaluation: whether it holds, and the event to write if that changed. */
export interface Decision {
  ruleId: string;
  /** the target and condition it was measured by */
  measured: Pick<RuleRecord, 'target' | 'condition'>;
  holding: boolean;
  value: number;
  /** the outbox event of a change, given its number (the rule's count of changes after it) */
  event(transition: number): { action: 'triggered' | 'cleared'; input: Parameters<Outbox['add']>[2] };
}

/**
 * The rules as an evaluation pass reads and decides them (docs/decisions/0271-alert-evaluation.md).
 * A batch's decisions are written in one transaction that locks the batch's state rows first: of
 * two replicas evaluating at once, the second waits, then finds the rows decided at its clock
 * reading or later and writes nothing; a change's event goes to the outbox with the row.
 */
export class RuleStates {
  constructor(
    private readonly knex: Knex,
    private readonly outbox: OutboxWriter,
  ) {}

  /** Up to `limit` rules after `afterId` (by id) whose target the copy holds for their account. */
  async page(afterId: string | null, limit: number): Promise<WatchedRule[]> {
    const q = this.knex
      .withSchema(AREA)
      .table('rules as r')
      .join('targets as t', function () {
        this.on('t.id', 'r.target_id').andOn('t.account_id', 'r.account_id').andOn('t.type', 'r.target_type');
      })
      .where('t.deleted', false)
      .select('r.id', 'r.account_id', 'r.description', 'r.target_type', 'r.target_id', 'r.condition', 't.latitude', 't.longitude')
      .orderBy('r.id')
      .limit(limit);
    if (afterId) q.where('r.id', '>', afterId);
    const rows: (RuleRow & { latitude: number; longitude: number })[] = await q;
    return rows.map((row) => {
      const rule = RULES.fromRow(row as unknown as Record<string, unknown>);
      return {
        rule,
        target: {
          id: rule.target.id,
          type: rule.target.type,
          accountId: rule.accountId,
          centroid: { lat: row.latitude, lon: row.longitude },
        },
      };
    });
  }

  /**
   * Claims the timed pass of the clock hour of `nowMs` (docs/decisions/0357-hourly-alert-pass-once.md):
   * true for the first claim of that hour among the replicas sharing this schema, false after.
   * Claims older than a day are let go by the claim that succeeds (a replica asks every minute).
   */
  async claimHour(nowMs: number): Promise<boolean> {
    const hour = Math.floor(nowMs / HOUR_MS);
    const claimed: unknown[] = await this.knex
      .withSchema(AREA)
      .table('hourly_passes')
      .insert({ hour, claimed_at: new Date(nowMs) })
      .onConflict('hour')
      .ignore()
      .returning('hour');
    if (claimed.length === 0) return false;
    await this.knex
      .withSchema(AREA)
      .table('hourly_passes')
      .where('hour', '<', hour - 24)
      .delete();
    return true;
  }

  /** Writes a batch's decisions made at `nowMs`; resolves to the actions of the events written. */
  async decide(decisions: readonly Decision[], nowMs: number): Promise<('triggered' | 'cleared')[]> {
    if (decisions.length === 0) return [];
    const now = new Date(nowMs);
    const ids = decisions.map((d) => d.ruleId);
    return this.knex.transaction(async (trx) => {
      const states = () => trx.withSchema(AREA).table('rule_states');
      // Every rule of the batch gets its row before any is locked, so a first evaluation is locked too.
      // (Only rules that still exist: one deleted since the page was read has no row to decide.)
      await trx.raw(
        `insert into ??.rule_states (rule_id, holding, value, transitions, evaluated_at)
         select id, false, null, 0, ? from ??.rules where id in (${ids.map(() => '?').join(', ')}) on conflict (rule_id) do nothing`,
        [AREA, new Date(0), AREA, ...ids],
      );
      const rows: StateRow[] = await states().whereIn('rule_id', ids).orderBy('rule_id').forUpdate();
      const byId = new Map(rows.map((r) => [r.rule_id, r]));
      // A rule replaced since the page was read was measured by a condition or target it no longer
      // has: it is decided afresh at the next pass, with no event for the old condition
      // (docs/decisions/0271-alert-evaluation.md). Read once the state rows are locked, so a replace
      // either shows here or resets the row after this transaction commits.
      const current: Record<string, unknown>[] = await trx
        .withSchema(AREA)
        .table('rules')
        .whereIn('id', ids)
        .select([...RULES.columns]);
      const rules = new Map(current.map((raw) => [raw.id as string, RULES.fromRow(raw)]));
      const written: ('triggered' | 'cleared')[] = [];
      const updates: Record<string, unknown>[] = [];
      for (const d of decisions) {
        const row = byId.get(d.ruleId);
        const rule = rules.get(d.ruleId);
        // a rule deleted or replaced since it was read, or decided at this clock reading or later by another pass
        if (!row || !rule || new Date(row.evaluated_at).getTime() >= nowMs) continue;
        if (!decidedAlike(rule, d.measured)) continue;
        let transitions = row.transitions;
        let changedAt = row.changed_at;
        if (d.holding !== row.holding) {
          transitions += 1;
          changedAt = now;
          const event = d.event(transitions);
          await this.outbox.add(trx, RULES_TOPIC, event.input);
          written.push(event.action);
        }
        updates.push({ rule_id: d.ruleId, holding: d.holding, value: d.value, transitions, evaluated_at: now, changed_at: changedAt });
      }
      if (updates.length > 0) await states().insert(updates).onConflict('rule_id').merge();
      return written;
    });
  }
}
