import { httpDateMs } from '../src/index.js';

// RFC 9110 section 5.6.7's example instant, in each of its three forms.
const EXAMPLE = Date.UTC(1994, 10, 6, 8, 49, 37);

describe('httpDateMs', () => {
  it('reads the three forms of RFC 9110 section 5.6.7 as the same instant, asctime as GMT', () => {
    expect(httpDateMs('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(EXAMPLE);
    expect(httpDateMs('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(EXAMPLE);
    expect(httpDateMs('Sun Nov  6 08:49:37 1994')).toBe(EXAMPLE);
  });

  it('is NaN for text that is no HTTP-date, however Date.parse would read it', () => {
    for (const text of ['1.5', '-1', '1 2', 'soon', 'Monday 2026', '2026-06-01T00:00:00Z', 'Sun, 06 Nov 1994 08:49:37 PST', ''])
      expect([text, httpDateMs(text)]).toEqual([text, NaN]);
  });
});
