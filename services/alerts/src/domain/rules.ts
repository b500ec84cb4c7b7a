import type { Condition, RuleInput, TargetType } from '../schemas.js';
import { checkCondition, DAY_MS } from './conditions.js';

/** An alert rule as stored: its owner, what it watches and the condition (docs/interface.md, alerts). */
export interface RuleRecord {
  id: string;
  accountId: string;
  description: string;
  target: { type: TargetType; id: string };
  condition: Condition;
}

/** The record a body makes, its condition's content checked at `nowMs` (422 invalid_condition). */
export function ruleRecord(id: string, accountId: string, input: RuleInput, nowMs: number): RuleRecord {
  checkCondition(input.condition, Math.floor(nowMs / DAY_MS) * DAY_MS);
  return {
    id,
    accountId,
    description: input.description,
    target: { type: input.target.type, id: input.target.id },
    condition: input.condition,
  };
}

export function ruleView(r: RuleRecord) {
  return { id: r.id, description: r.description, target: r.target, condition: r.condition };
}

/** The namespaces of the resources an alert is tagged with (docs/architecture.md §5). */
export const RULE_NAMESPACE = 'alerts/rules';
export const TARGET_NAMESPACES: Readonly<Record<TargetType, string>> = { field: 'agriculture/fields', asset: 'insight/assets' };
