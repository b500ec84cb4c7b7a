import { fieldcastId } from '@fieldcast/ids';
import type { Logger } from '@fieldcast/kit';
import { type AlertWeather, sharedReads } from './domain/alert-weather.js';
import { holds } from './domain/conditions.js';
import { measure } from './domain/measure.js';
import { alertMessage, shownValue } from './domain/messages.js';
import { RULE_NAMESPACE, ruleView, TARGET_NAMESPACES } from './domain/rules.js';
import { AREA, type Decision, RULE_KIND, type RuleStates, type WatchedRule } from './store.js';

/** Rules read, measured and decided together: the most one pass holds in memory at once. */
export const EVALUATION_BATCH = 500;

export interface PassResult {
  rules: number;
  triggered: number;
  cleared: number;
  /** rules the weather could not be read for; decided again next pass */
  unread: number;
}

/**
 * Evaluates every rule at a clock reading (docs/decisions/0271-alert-evaluation.md): in batches by
 * rule id, each rule measured on the weather (reads shared within a batch) and the batch's
 * decisions written with their events in one transaction (RuleStates.decide). A rule whose
 * weather cannot be read keeps its state until a later pass reads it.
 */
export class Evaluator {
  private running: Promise<PassResult> | null = null;
  private next: Promise<PassResult> | null = null;
  private nextAtMs = 0;

  constructor(
    private readonly states: RuleStates,
    private readonly weather: AlertWeather,
    private readonly logger: Logger,
    private readonly batch = EVALUATION_BATCH,
  ) {}

  /**
   * A pass at `nowMs` after the one under way; requests made while one waits share it (many
   * announcements of one new run make one more pass, at the latest clock reading asked).
   */
  request(nowMs: number): Promise<PassResult> {
    this.nextAtMs = Math.max(this.nextAtMs, nowMs);
    this.next ??= (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        const atMs = this.nextAtMs;
        this.next = null;
        this.nextAtMs = 0;
        this.running = this.pass(atMs).finally(() => (this.running = null));
        return this.running;
      });
    return this.next;
  }

  /** One pass over every rule at `nowMs`. */
  async pass(nowMs: number): Promise<PassResult> {
    const result: PassResult = { rules: 0, triggered: 0, cleared: 0, unread: 0 };
    let after: string | null = null;
    for (;;) {
      const page = await this.states.page(after, this.batch);
      if (page.length === 0) break;
      const weather = sharedReads(this.weather);
      const decisions = (await Promise.all(page.map((w) => this.decision(w, nowMs, weather)))).filter((d): d is Decision => d !== null);
      result.unread += page.length - decisions.length;
      for (const action of await this.states.decide(decisions, nowMs)) result[action] += 1;
      result.rules += page.length;
      after = page[page.length - 1]!.rule.id;
      if (page.length < this.batch) break;
    }
    return result;
  }

  private async decision({ rule, target }: WatchedRule, nowMs: number, weather: AlertWeather): Promise<Decision | null> {
    let m;
    try {
      m = await measure(rule.condition, target.centroid, nowMs, weather);
    } catch (err) {
      this.logger.warn({ err, rule: rule.id }, 'could not read the weather of an alert rule; it keeps its state');
      return null;
    }
    if (!Number.isFinite(m.value)) return null;
    const holding = holds(rule.condition, m.value);
    const kind = rule.condition.kind;
    return {
      ruleId: rule.id,
      measured: { target: rule.target, condition: rule.condition },
      holding,
      value: m.value,
      event: (transition) => {
        const action = holding ? 'triggered' : 'cleared';
        return {
          action,
          input: {
            // The same change of the same rule has the same id wherever it is written, so the
            // events area stores it once (docs/decisions/0022-derived-ids-uuid-v5.md).
            id: fieldcastId('alert', rule.id, String(transition)),
            area: AREA,
            resource: RULE_KIND,
            action,
            subject: rule.id,
            time: new Date(nowMs),
            data: {
              account: rule.accountId,
              resource: {
                ...ruleView(rule),
                value: shownValue(m.value),
                ...(m.atMs === undefined ? {} : { at: new Date(m.atMs).toISOString() }),
              },
              related: [{ namespace: TARGET_NAMESPACES[target.type], id: target.id }],
              event: {
                origin: { namespace: RULE_NAMESPACE, id: rule.id },
                namespace: `${AREA}/${kind}/${action}`,
                message: alertMessage(rule.condition, m, holding),
              },
            },
          },
        };
      },
    };
  }
}
