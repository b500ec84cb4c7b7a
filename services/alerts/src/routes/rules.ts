import { type Api, BodyFault, NotFoundError, ownedResourceRoutes } from '@fieldcast/kit';
import { IdParams } from '@fieldcast/schemas';
import { thresholdOf, unitOf } from '../domain/conditions.js';
import { shownValue } from '../domain/messages.js';
import { ruleRecord, ruleView } from '../domain/rules.js';
import { Rule, RuleInput, RuleStateView } from '../schemas.js';
import type { RuleStore } from '../store.js';

const RULES = `A rule watches one of the account's fields (agriculture) or assets (insight) for one condition: degree-days (the total since start reaching threshold), frost (the lowest forecast temperature of the next hours below threshold), reference-et (short-crop reference ET summed over the last days above threshold), precipitation (the forecast total of the next hours above threshold) or severe-weather (an event within radiusKm in the last hours). A body of the wrong shape is 400 invalid_body; a condition outside its ranges is 422 invalid_condition, each naming the path. A target the alerts area does not know as the account's (not arrived yet from its area, or not the account's) is accepted and watched once it is known; one of the account's own that was deleted, or named with the other type, is 422 target_does_not_exist.`;

/** To the millisecond, as every timestamp (docs/interface.md §1, Values). */
const iso = (t: Date | string | null | undefined) => (t ? new Date(t).toISOString() : null);

/** Alert rules (docs/interface.md, alerts): each account sees and changes only its own. */
export function ruleRoutes(api: Api, rules: RuleStore): Api {
  return ownedResourceRoutes(api, rules, {
    kind: 'rule',
    path: '/rules',
    tag: 'rules',
    noun: { one: 'rule', many: 'rules' },
    input: RuleInput,
    bodyFaults: BodyFault.malformed,
    contentRules: true,
    view: Rule,
    build: ruleRecord,
    present: ruleView,
    docs: {
      create: { summary: 'Create an alert rule on a field or an asset', description: RULES },
      replace: {
        description: `${RULES} A rule replaced by a different one is decided afresh at the next evaluation; the same rule sent again changes nothing.`,
      },
      remove: { description: 'Its events stay in the feeds; no cleared event follows a deleted rule.' },
    },
  }).op({
    method: 'get',
    path: '/rules/{id}/state',
    summary: 'Read whether a rule holds',
    description: 'As its last evaluation decided it; its triggered and cleared events are in the events area, in the feed of the rule.',
    tags: ['rules'],
    params: IdParams,
    response: { status: 200, description: 'The state of the rule', schema: RuleStateView },
    errors: [404],
    handle: async ({ account, params }) => {
      const found = await rules.stateOf(account.id, params.id);
      if (!found) throw new NotFoundError('rule', params.id);
      const { rule, state, watching } = found;
      return {
        rule: rule.id,
        watching,
        holding: state && new Date(state.evaluated_at).getTime() > 0 ? state.holding : null,
        value: state?.value === null || state?.value === undefined ? null : shownValue(state.value),
        threshold: thresholdOf(rule.condition),
        unit: unitOf(rule.condition),
        evaluatedAt: state && new Date(state.evaluated_at).getTime() > 0 ? iso(state.evaluated_at) : null,
        changedAt: iso(state?.changed_at),
      };
    },
  });
}
