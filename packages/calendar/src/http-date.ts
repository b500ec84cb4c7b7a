/**
 * HTTP-dates (RFC 9110 section 5.6.7), which a recipient must accept in all three forms: the
 * IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 date
 * `Sunday, 06-Nov-94 08:49:37 GMT` and asctime's `Sun Nov  6 08:49:37 1994`.
 */

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(?:${MONTHS.join('|')})`;
const TIME = '\\d\\d:\\d\\d:\\d\\d';
/** The IMF-fixdate and the RFC 850 date, each naming GMT. */
const ZONED = new RegExp(
  `^(?:${DAY}, \\d\\d ${MONTH} \\d{4}|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d\\d-${MONTH}-\\d\\d) ${TIME} GMT$`,
);
/** asctime's date, which names no zone and is GMT. */
const ASCTIME = new RegExp(`^${DAY} (${MONTH}) ([ \\d]\\d) (\\d\\d):(\\d\\d):(\\d\\d) (\\d{4})$`);

/**
 * An HTTP-date as milliseconds since the epoch; NaN for text of any other form. Date.parse alone
 * reads almost anything as some date ("1.5" is 5 January 2001), which would turn a malformed
 * Retry-After into "now", and reads asctime's date in the process's zone.
 */
export function httpDateMs(value: string): number {
  const asctime = ASCTIME.exec(value);
  if (asctime) {
    const [, month, day, h, m, s, year] = asctime;
    return Date.UTC(Number(year), MONTHS.indexOf(month!), Number(day), Number(h), Number(m), Number(s));
  }
  return ZONED.test(value) ? Date.parse(value) : NaN;
}
