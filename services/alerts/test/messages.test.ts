import { alertMessage } from '../src/domain/messages.js';

describe('alert messages: the value and the threshold as they are', () => {
  it('one decimal from 1 on, as the areas round their values', () => {
    expect(alertMessage({ kind: 'precipitation', threshold: 25, hours: 24 }, { value: 1234.56 }, true)).toBe(
      'Rule {}: 1,234.6 mm of precipitation forecast at {} in the next 24 hours, above 25.0 mm',
    );
  });

  it('a small threshold and value keep two significant digits, never 0.0 above 0.0', () => {
    expect(alertMessage({ kind: 'reference-et', threshold: 0.01, days: 1 }, { value: 0.034 }, true)).toBe(
      'Rule {}: reference ET at {} was 0.034 mm over the last 1 day, above 0.01 mm',
    );
    expect(alertMessage({ kind: 'precipitation', threshold: 0.5, hours: 1 }, { value: 0 }, false)).toBe(
      'Rule {}: the precipitation forecast at {} is down to 0.0 mm in the next 1 hour, threshold 0.5 mm',
    );
  });
});
