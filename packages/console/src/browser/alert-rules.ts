/**
 * Alert rules as a person reads them (docs/interface.md §12): the condition in a line, and the
 * state the last evaluation left. No DOM here, so it is tested in Node.
 */

/** A rule's condition as the alerts area serves it. */
export interface AlertCondition {
  kind: string;
  threshold?: number;
  hours?: number;
  days?: number;
  start?: string;
  scale?: string;
  base?: number;
  method?: string;
  radiusKm?: number;
  types?: string[];
}

export interface AlertRule {
  id: string;
  description: string;
  target: { type: string; id: string };
  condition: AlertCondition;
}

export interface AlertState {
  watching: boolean;
  holding: boolean | null;
  value: number | null;
  threshold: number;
  unit: string;
  evaluatedAt: string | null;
}

const n = (x: number | undefined) => (x === undefined ? '?' : x.toLocaleString('en', { maximumFractionDigits: 1 }));

/** The condition in a line, e.g. "Frost: below 0 °C within 48 h". */
export function describeCondition(c: AlertCondition): string {
  switch (c.kind) {
    case 'degree-days':
      return `Degree days since ${c.start ?? '?'}: ${n(c.threshold)} ${c.scale === 'fahrenheit' ? '°F·d' : '°C·d'}${c.method ? ` (${c.method})` : ''}`;
    case 'frost':
      return `Frost: below ${n(c.threshold)} °C within ${n(c.hours)} h`;
    case 'reference-et':
      return `Reference ET: above ${n(c.threshold)} mm over ${n(c.days)} days`;
    case 'precipitation':
      return `Precipitation: above ${n(c.threshold)} mm in ${n(c.hours)} h`;
    case 'severe-weather':
      return `Severe weather (${(c.types ?? ['any']).join(', ')}) within ${n(c.radiusKm)} km in ${n(c.hours)} h`;
    default:
      return c.kind;
  }
}

/**
 * The body of the console's one-click frost rule on a field: below 0 °C within 48 h. Its
 * description says the condition and not the field's name, which a rename would leave stale in
 * every later alert; the field is the rule's target, named as it is now wherever it is shown.
 */
export function frostRuleOn(fieldId: string): Omit<AlertRule, 'id'> {
  const condition = { kind: 'frost', threshold: 0, hours: 48 };
  return { description: describeCondition(condition), target: { type: 'field', id: fieldId }, condition };
}

/** What the state says, e.g. "holding: -1.8 °C" or "not evaluated yet". */
export function describeState(s: AlertState): string {
  if (!s.watching) return 'waiting for its field';
  if (s.holding === null) return 'not evaluated yet';
  return `${s.holding ? 'holding' : 'clear'}: ${n(s.value ?? undefined)} ${s.unit}`;
}

/**
 * Whether the field has the one-click frost rule already (frostRuleOn's condition, whatever its
 * description): a second like rule would alert twice on every frost, so the console offers it
 * only once a field (docs/decisions/0526-console-frost-rule-once-a-field.md).
 */
export function holdsFrostRule(rules: readonly AlertRule[], fieldId: string): boolean {
  const { condition } = frostRuleOn(fieldId);
  return rules.some(
    (r) =>
      r.target.id === fieldId &&
      r.condition.kind === condition.kind &&
      r.condition.threshold === condition.threshold &&
      r.condition.hours === condition.hours,
  );
}
