import { describeCondition, describeState, frostRuleOn, holdsFrostRule } from '../src/browser/alert-rules.js';

// The console's lines for alert rules (docs/interface.md §12): each kind's condition and the state.
describe('alert rules as the console shows them', () => {
  it('says each kind’s condition in a line', () => {
    expect(describeCondition({ kind: 'frost', threshold: -1.5, hours: 48 })).toBe('Frost: below -1.5 °C within 48 h');
    expect(describeCondition({ kind: 'precipitation', threshold: 25, hours: 24 })).toBe('Precipitation: above 25 mm in 24 h');
    expect(describeCondition({ kind: 'reference-et', threshold: 30, days: 7 })).toBe('Reference ET: above 30 mm over 7 days');
    expect(
      describeCondition({ kind: 'degree-days', start: '2026-04-15', threshold: 1200, scale: 'fahrenheit', method: 'single-sine' }),
    ).toBe('Degree days since 2026-04-15: 1,200 °F·d (single-sine)');
    expect(describeCondition({ kind: 'severe-weather', radiusKm: 25, hours: 6, types: ['hail', 'tornado'] })).toBe(
      'Severe weather (hail, tornado) within 25 km in 6 h',
    );
  });

  it('says whether it holds, and why it has no answer yet', () => {
    const state = { watching: true, holding: true, value: -1.84, threshold: 0, unit: '°C', evaluatedAt: '2026-12-05T00:00:00Z' };
    expect(describeState(state)).toBe('holding: -1.8 °C');
    expect(describeState({ ...state, holding: false, value: 3 })).toBe('clear: 3 °C');
    expect(describeState({ ...state, holding: null, value: null, evaluatedAt: null })).toBe('not evaluated yet');
    expect(describeState({ ...state, watching: false })).toBe('waiting for its field');
  });

  it("makes the one-click frost rule say its condition, not the field's name a rename would leave stale", () => {
    expect(frostRuleOn('7d0e2c9a-1b3f-4e5d-8c6a-2f4b1d3e5a7c')).toEqual({
      description: 'Frost: below 0 °C within 48 h',
      target: { type: 'field', id: '7d0e2c9a-1b3f-4e5d-8c6a-2f4b1d3e5a7c' },
      condition: { kind: 'frost', threshold: 0, hours: 48 },
    });
  });

  // docs/decisions/0526-console-frost-rule-once-a-field.md: a second like rule alerts twice on every frost.
  it('knows a field has the one-click frost rule already, and not a rule of another field or condition', () => {
    const field = '7d0e2c9a-1b3f-4e5d-8c6a-2f4b1d3e5a7c';
    const frost = { id: 'r1', ...frostRuleOn(field) };
    expect(holdsFrostRule([frost], field)).toBe(true);
    // described otherwise by whoever made it: the condition counts, not the words
    expect(holdsFrostRule([{ ...frost, description: 'Frost in the orchard' }], field)).toBe(true);
    expect(holdsFrostRule([], field)).toBe(false);
    expect(holdsFrostRule([{ ...frost, target: { type: 'field', id: 'another' } }], field)).toBe(false);
    expect(holdsFrostRule([{ ...frost, condition: { kind: 'frost', threshold: -2, hours: 48 } }], field)).toBe(false);
    expect(holdsFrostRule([{ ...frost, condition: { kind: 'frost', threshold: 0, hours: 24 } }], field)).toBe(false);
  });
});
