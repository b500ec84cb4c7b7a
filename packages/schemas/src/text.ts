import { z } from 'zod';

/** A UTF-16 code unit of a surrogate pair that has no partner. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Free text a caller sends and the service stores: a string of Unicode scalar values without
 * U+0000. JSON may carry both `\u0000` and a lone surrogate (RFC 8259 section 8.2), but neither is
 * text: PostgreSQL refuses U+0000 in text and an unpaired surrogate has no UTF-8 form (RFC 3629
 * section 3). Refused here, so the body fails validation with the member's path and never reaches
 * the database. Every free-text member of a request uses this type.
 *
 * Its limits are zod's `.min` and `.max`, which count characters, Unicode code points (the pinned
 * zod, pnpm-workspace.yaml), as each limit's message says: the count of JSON Schema's maxLength
 * (draft 2020-12 validation section 6.3.1), which the OpenAPI documents state, and of PostgreSQL's
 * char_length. An emoji outside the Basic Multilingual Plane is two UTF-16 code units and one
 * character (packages/schemas/test/text-limits.test.ts;
 * docs/decisions/0485-limits-count-characters-and-thresholds-are-earthly.md).
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z
    .string(params)
    .refine((s) => !s.includes('\u0000'), { error: 'must not contain the character U+0000 (NUL)', abort: true })
    .refine((s) => !UNPAIRED_SURROGATE.test(s), {
      error: 'must be valid Unicode text: it holds an unpaired surrogate (RFC 3629 section 3)',
      abort: true,
    });
}

/**
 * A client's map of names to values (tags). A member named `__proto__` is refused: parsed into a
 * JavaScript object it would be dropped, the name being the object's prototype, and a tag refused
 * is better than one silently lost.
 */
export function stringMap<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V) {
  return z.preprocess(
    (input, ctx) => {
      if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__'))
        ctx.addIssue({ code: 'custom', path: ['__proto__'], message: '__proto__ cannot be a name here: JavaScript objects reserve it' });
      return input;
    },
    z.record(key, value, {
      // A name at fault is one issue of the record's (invalid_key) holding the name's own: its
      // message says what is wrong with the name, not zod's "Invalid key in record".
      error: (issue) => (issue.code === 'invalid_key' ? issue.issues.map((i) => i.message).join('; ') : undefined),
    }),
  );
}

/** One pass of nameKey: spaces mapped, collapsed and trimmed, then lower case, then NFKC. */
const nameKeyPass = (name: string) =>
  name
    .replace(/\p{Zs}+/gu, ' ')
    .trim()
    .toLowerCase()
    .normalize('NFKC')
    .replace(/\p{Zs}+/gu, ' ')
    .trim();

/**
 * The form names people read are compared in, case-insensitively: RFC 8266's comparison of
 * nicknames. Every space character is one ASCII space, runs of them one, none at either end; then
 * lower case (Unicode toLowerCase); then NFKC, so a name in another Unicode form of the same text (a
 * combining accent, full-width letters, a ligature) is the same name. Repeated until stable: NFKC
 * may yield a capital, lower case a decomposable character (RFC 8264 section 7).
 * docs/decisions/0393-style-names-compared-as-they-read.md
 */
export function nameKey(name: string): string {
  let key = nameKeyPass(name);
  for (let next = nameKeyPass(key); next !== key; next = nameKeyPass(key)) key = next;
  return key;
}
