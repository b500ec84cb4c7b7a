import { z } from 'zod';

/**
 * The words of a refusal that no schema words itself (spec 7: errors[] names each fault). zod's
 * own English ("Invalid input: expected string, received number", "Too small: expected array to
 * have >=1 items") is a library's, and reads as one; every schema of this package that does not
 * give its own message gets these, set once for the zod the whole workspace shares
 * (z.config customError: a schema's own message still comes first).
 */

/** What a JSON value is, in words (RFC 8259 section 3). */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'missing';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** zod's names of types, as this API words them. */
const TYPES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  // a map of names to values (an asset's tags, spec 2.2) and a fixed-length array are, in JSON, an object and an array
  record: 'an object',
  tuple: 'an array',
  bigint: 'a whole number',
  date: 'a date',
};

/** zod's string formats this API's schemas use without words of their own. */
const FORMATS: Record<string, string> = {
  uuid: 'must be a UUID',
  url: 'must be a URL',
  email: 'must be an email address',
  datetime: 'must be an ISO 8601 date and time with a zone',
  date: 'must be a date YYYY-MM-DD',
};

/** What a too_small or too_big issue counts, by what was measured. */
function extent(origin: string, bound: number | bigint): string {
  const n = Number(bound);
  if (origin === 'string') return `${n.toLocaleString('en')} character${n === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return `${n.toLocaleString('en')} entr${n === 1 ? 'y' : 'ies'}`;
  return n.toLocaleString('en', { maximumFractionDigits: 20 });
}

/** A bound a value passes: a number is at least (or more than) it, a string or array has at least so many characters or entries. */
function boundWords(origin: string, bound: number | bigint, inclusive: boolean | undefined, within: string, beyond: string): string {
  if (origin === 'number' || origin === 'int' || origin === 'bigint')
    return `must be ${inclusive ? within : beyond} ${extent(origin, bound)}`;
  return `must have ${within} ${extent(origin, bound)}`;
}

function wordsOf(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      // a member that is not there is missing, whatever its type would have been
      if (issue.input === undefined) return `is missing: must be ${TYPES[issue.expected] ?? issue.expected}`;
      if (issue.expected === 'int' && typeof issue.input === 'number') return 'must be a whole number';
      // NaN (a coerced text that is no number) is typeof number: "a number, not a number" says nothing
      if (Number.isNaN(issue.input)) return `must be ${TYPES[issue.expected] ?? issue.expected}`;
      // JSON.parse reads a number past every double, such as 1e400, as Infinity (RFC 8259 section 6 lets a parser limit the range)
      if (issue.input === Infinity || issue.input === -Infinity)
        return `must be ${TYPES[issue.expected] ?? issue.expected}, not one beyond the largest JSON number this API reads (±1.8e308)`;
      return `must be ${TYPES[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    }
    case 'too_small':
      return boundWords(issue.origin, issue.minimum, issue.inclusive, 'at least', 'more than');
    case 'too_big':
      return boundWords(issue.origin, issue.maximum, issue.inclusive, 'at most', 'less than');
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(', ')}`;
    }
    case 'unrecognized_keys': {
      const names = issue.keys.map((k) => JSON.stringify(k)).join(', ');
      return issue.keys.length === 1 ? `${names} is not a member this object takes` : `${names} are not members this object takes`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_format':
      return FORMATS[issue.format];
    default:
      return undefined;
  }
}

z.config({ customError: wordsOf });
