import {
  DEGREE_DAY_CUTOFF_INPUTS,
  DEGREE_DAY_METHOD_NAMES,
  DEGREE_DAY_SCALES,
  DEGREE_DAY_THRESHOLD_WORDS,
  Timestamp,
  text,
  Uuid,
  UuidInput,
} from '@fieldcast/schemas';
import { SEVERE_KINDS } from '@fieldcast/weather';
import { z } from 'zod';
import { LIMITS } from './domain/limits.js';

/**
 * The bodies and resources of the alerts area (docs/interface.md, alerts). These schemas check
 * the shape of a body (a 400 when it fails); what a well-formed condition may hold, its ranges
 * and combinations, is checked by the domain (domain/conditions.ts, a 422 naming the path). A
 * member they do not know is refused: a misspelt `cuttoff` would otherwise be dropped, and the
 * rule would watch something other than what its owner wrote.
 */

export const TARGET_TYPES = ['field', 'asset'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

const threshold = (description: string) => z.number().meta({ description });
const count = (description: string) => z.number().int({ error: 'must be a whole number' }).meta({ description });

const DegreeDays = z.strictObject({
  kind: z.literal('degree-days'),
  start: z.string().meta({
    description:
      'first day counted, YYYY-MM-DD (UTC), at most 365 days before today: a season of at most 366 days, whose total stops growing once they have passed',
    examples: ['2026-04-15'],
  }),
  threshold: threshold('degree days (in the scale) the total since start must reach, greater than 0'),
  base: z
    .number()
    .optional()
    .meta({
      description: `base temperature in the scale, ${DEGREE_DAY_THRESHOLD_WORDS}; default 10 (celsius) or 50 (fahrenheit)`,
    }),
  scale: z.enum(DEGREE_DAY_SCALES).optional().meta({ description: 'celsius (default) or fahrenheit' }),
  method: z
    .enum(DEGREE_DAY_METHOD_NAMES)
    .optional()
    .meta({ description: 'the degree-day method, as the agriculture area takes it (default average)' }),
  cap: z
    .number()
    .optional()
    .meta({ description: `upper threshold in the scale, not below base, ${DEGREE_DAY_THRESHOLD_WORDS}; not with the average method` }),
  cutoff: z
    .enum(DEGREE_DAY_CUTOFF_INPUTS)
    .optional()
    .meta({ description: 'how cap applies (default horizontal, also named cap); others need cap and a sine or triangle method' }),
});

const Frost = z.strictObject({
  kind: z.literal('frost'),
  threshold: threshold(`°C, ${LIMITS.frostThresholdC.join(' to ')}: the rule holds while the lowest forecast air temperature is below it`),
  hours: count(`the forecast hours looked at from now, 1 to ${LIMITS.forecastHours}`),
});

const ReferenceEt = z.strictObject({
  kind: z.literal('reference-et'),
  threshold: threshold(
    `mm, greater than 0 and at most ${LIMITS.etThresholdMm}: the rule holds while the summed short-crop reference ET is above it`,
  ),
  days: count(`the days summed, ending now, 1 to ${LIMITS.etDays}`),
});

const Precipitation = z.strictObject({
  kind: z.literal('precipitation'),
  threshold: threshold(`mm, 0 to ${LIMITS.precipitationThresholdMm}: the rule holds while the forecast total is above it`),
  hours: count(`the forecast hours summed from now, 1 to ${LIMITS.forecastHours}`),
});

const SevereWeather = z.strictObject({
  kind: z.literal('severe-weather'),
  radiusKm: z.number().meta({ description: `km around the centroid, greater than 0 and at most ${LIMITS.severeRadiusKm}` }),
  hours: count(`the hours looked back from now, 1 to ${LIMITS.severeHours}`),
  types: z
    .array(z.enum(SEVERE_KINDS))
    .optional()
    .meta({
      description: `the kinds of severe weather that count (the archive's), at least one, each once; default all: ${SEVERE_KINDS.join(', ')}. storm_report also counts the storm reports ingested into the archive, whatever their file's type`,
    }),
});

export const Condition = z
  .discriminatedUnion('kind', [DegreeDays, Frost, ReferenceEt, Precipitation, SevereWeather], {
    // the kind's words only for an object with no known kind; a condition missing, or no object, is told so as any member is
    error: (issue) =>
      issue.code === 'invalid_union' ? 'kind must be one of degree-days, frost, reference-et, precipitation, severe-weather' : undefined,
  })
  .meta({ id: 'AlertCondition' });
export type Condition = z.infer<typeof Condition>;

const Target = z.strictObject({
  type: z.enum(TARGET_TYPES, { error: 'type must be field or asset' }),
  id: UuidInput.meta({ description: 'the id of one of the account’s fields (agriculture) or assets (insight)' }),
});

/** Body of POST /rules and PUT /rules/{id}. */
export const RuleInput = z
  .strictObject({
    description: text().max(1000).default(''),
    target: Target,
    condition: Condition,
  })
  .meta({
    id: 'AlertRuleInput',
    examples: [
      {
        description: 'Frost on North 40',
        target: { type: 'field', id: '0b7f2c3e-5a8d-4c21-9f1e-2d6a7b8c9d01' },
        condition: { kind: 'frost', threshold: 0, hours: 48 },
      },
    ],
  });
export type RuleInput = z.infer<typeof RuleInput>;

export const Rule = z
  .object({
    id: Uuid,
    description: z.string(),
    target: z.object({ type: z.enum(TARGET_TYPES), id: Uuid }),
    condition: Condition,
  })
  .meta({ id: 'AlertRule' });

export const RuleStateView = z
  .object({
    rule: Uuid,
    watching: z.boolean().meta({
      description: 'whether the alerts area knows the target as one of the account’s fields or assets: the rule is evaluated only then',
    }),
    holding: z.boolean().nullable().meta({ description: 'whether the condition holds; null before the first evaluation' }),
    value: z.number().nullable().meta({
      description:
        'the value last measured, in the unit of the threshold, as the alert message shows it (one decimal; two significant digits under 1); rules compare it unrounded',
    }),
    threshold: z.number(),
    unit: z.string(),
    evaluatedAt: Timestamp.nullable(),
    changedAt: Timestamp.nullable().meta({ description: 'when it last triggered or cleared' }),
  })
  .meta({ id: 'AlertRuleState' });
