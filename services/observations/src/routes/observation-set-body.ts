import { ObservationSetInput } from '@fieldcast/schemas';
import { z } from 'zod';

/** The members of an observation set (spec 2.9). */
const MEMBERS: ReadonlySet<string> = new Set(['sites', 'tags']);

/**
 * The body of POST /observation-sets: its shape first, then its content (docs/interface.md §8).
 * A body that is no JSON object, has no `sites` or has members besides `sites` and `tags` has the
 * wrong shape, and only those faults are reported, whatever else is wrong: each names no member
 * of the set (the path of an unknown member is the body's own, as zod gives it), so the kit answers
 * them 400 invalid_body. Only a body of the right shape has its content checked, where every fault
 * lies inside `sites` or `tags` (422). The kit hands an empty body on as `{}`, which has no `sites`
 * (docs/decisions/0361-observation-body-shape-and-period-precision.md).
 *
 * A preprocessing step rather than a schema piped into ObservationSetInput: OpenAPI documents the
 * body's input side, which is then ObservationSetInput itself.
 */
export const ObservationSetBody = z.preprocess<unknown, typeof ObservationSetInput, z.input<typeof ObservationSetInput>>(
  (body: unknown, ctx) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'must be a JSON object with sites and, optionally, tags' });
      return body;
    }
    const unknown = Object.keys(body).filter((key) => !MEMBERS.has(key));
    if (unknown.length > 0) {
      const names = unknown.map((key) => JSON.stringify(key)).join(', ');
      // A custom issue: zod lets a pipe go on past unrecognized_keys, which would check the content too.
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `${names} ${unknown.length > 1 ? 'are not members' : 'is not a member'} this object takes: a set has only sites and tags`,
      });
    }
    if (!Object.hasOwn(body, 'sites'))
      ctx.addIssue({ code: 'custom', path: [], message: 'sites is missing: a set needs an array of sites' });
    return body;
  },
  ObservationSetInput,
);
