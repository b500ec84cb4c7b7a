import { isDeepStrictEqual } from 'node:util';
import { Condition, type RuleInput, type TargetType } from '../schemas.js';
import { checkCondition, DAY_MS, sameMeasure } from './conditions.js';

/** An alert rule as stored: its owner, what it watches and the condition (docs/interface.md, alerts). */
export interface RuleRecord {
  id: string;
  accountId: string;
  description: string;
  target: { type: TargetType; id: string };
  condition: Condition;
}

/** The record a body makes; its condition is checked by checkRule, which knows the rule it replaces. */
export function ruleRecord(id: string, accountId: string, input: RuleInput): RuleRecord {
  return {
    id,
    accountId,
    description: input.description,
    target: { type: input.target.type, id: input.target.id },
    condition: input.condition,
  };
}

/**
 * Throws the 422 invalid_condition of a rule's condition, checked at `nowMs`, unless the rule
 * replaces one with the same measure (`before`): that condition was accepted when it was given,
 * and a degree-day rule outlives its season (docs/decisions/0272-alert-rule-kinds.md), so the
 * same rule sent again after it is not refused for a start that today puts too far back
 * (docs/decisions/0371-alert-rule-edits.md).
 */
export function checkRule(record: RuleRecord, nowMs: number, before?: RuleRecord): void {
  if (before && sameMeasure(before.condition, record.condition)) return;
  checkCondition(record.condition, Math.floor(nowMs / DAY_MS) * DAY_MS);
}

/**
 * Whether two versions of a rule are decided alike: the same target and a condition of the same
 * measure. Anything else is decided afresh (docs/interface.md §12).
 */
export function decidedAlike(a: Pick<RuleRecord, 'target' | 'condition'>, b: Pick<RuleRecord, 'target' | 'condition'>): boolean {
  return isDeepStrictEqual(a.target, b.target) && sameMeasure(a.condition, b.condition);
}

/** Each kind's members in the order its schema declares them, the order a parsed body has. */
const MEMBER_ORDER: ReadonlyMap<string, readonly string[]> = new Map(
  Condition.options.map((kind) => [[...kind.shape.kind.values][0]!, Object.keys(kind.shape)]),
);

/**
 * A condition with its members in its kind's order. A stored one comes back from jsonb in an
 * order of jsonb's own (shorter names first): shown as it came, a read would differ from the
 * create's answer, and so would the ETag that If-Match compares
 * (docs/decisions/0461-owned-resources-honour-if-match.md).
 */
function inMemberOrder(condition: Condition): Condition {
  const order = MEMBER_ORDER.get(condition.kind) ?? [];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.fromEntries(Object.entries(condition).sort(([a], [b]) => rank(a) - rank(b))) as Condition;
}

export function ruleView(r: RuleRecord) {
  return { id: r.id, description: r.description, target: r.target, condition: inMemberOrder(r.condition) };
}

/** The namespaces of the resources an alert is tagged with (docs/architecture.md §5). */
export const RULE_NAMESPACE = 'alerts/rules';
export const TARGET_NAMESPACES: Readonly<Record<TargetType, string>> = { field: 'agriculture/fields', asset: 'insight/assets' };
