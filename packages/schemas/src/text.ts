import { z } from 'zod';

/** A UTF-16 code unit of a surrogate pair that has no partner. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Free text a caller sends and the service stores: a string of Unicode scalar values without
 * U+0000. JSON may carry both `\u0000` and a lone surrogate (RFC 8259 section 8.2), but neither is
 * text: PostgreSQL refuses U+0000 in text and an unpaired surrogate has no UTF-8 form (RFC 3629
 * section 3). Refused here, so the body fails validation with the member's path and never reaches
 * the database. Every free-text member of a request uses this type.
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
