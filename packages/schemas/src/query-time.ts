/**
 * The words every time query parameter's refusal adds for a timestamp whose offset lost its `+`:
 * in a query string `+` reads as a space (WHATWG URL, application/x-www-form-urlencoded), so
 * `…T14:00:00+02:00` sent unencoded arrives as `…T14:00:00 02:00`.
 */

/** A timestamp whose offset's `+` became a space: a time, a space, and the offset's hours (and minutes). */
const PLUS_READ_AS_SPACE = /T[\d:.,]+ \d{2}(:?\d{2})?$/i;

/** What to send instead, shown with UTC's offset, the one every time parameter takes (the model and insight areas take only UTC). */
const PLUS_READ_AS_SPACE_HINT = "a + in a query string reads as a space, so send an offset's + as %2B (2026-05-01T14:00:00%2B00:00)";

/** A time query parameter's refusal, with the hint when the value it refuses looks like an offset whose `+` became a space. */
export function withPlusHint(message: string, value: unknown): string {
  return typeof value === 'string' && PLUS_READ_AS_SPACE.test(value) ? `${message}; ${PLUS_READ_AS_SPACE_HINT}` : message;
}
