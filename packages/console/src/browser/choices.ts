/**
 * The choices of the degree-day and point panels: the methods, cutoffs, scales and chill models
 * the agriculture area takes, from the lists it takes them from (@fieldcast/science), each named
 * in words a person reads and the area's default chosen (docs/decisions/0439-console-choices-from-science-and-deleted-resources.md).
 * A name is owed for every entry of a list, so one added there fails the typecheck until it is
 * named here. No DOM here, so it is tested in Node.
 */
import {
  CHILL_MODELS,
  type ChillModel,
  DEGREE_DAY_CUTOFFS,
  DEGREE_DAY_METHODS,
  DEGREE_DAY_SCALES,
  type DegreeDayCutoff,
  type DegreeDayMethod,
  type DegreeDayScale,
} from '@fieldcast/science';

/** An option of a select: what the query sends, what a person reads, whether it is chosen at first. */
export interface Choice {
  value: string;
  label: string;
  selected?: boolean;
}

function choices<T extends string>(list: readonly T[], labels: Record<T, string>, chosen: T): Choice[] {
  return list.map((value) => ({ value, label: labels[value], ...(value === chosen ? { selected: true } : {}) }));
}

/** The methods (decision 0240); average is the area's default (spec 4.1). */
export const METHOD_CHOICES = choices<DegreeDayMethod>(
  DEGREE_DAY_METHODS,
  {
    average: 'Average',
    'modified-average': 'Modified average',
    'single-sine': 'Single sine',
    'single-triangle': 'Single triangle',
    'double-sine': 'Double sine',
    'double-triangle': 'Double triangle',
  },
  'average',
);

/**
 * The cutoffs by their names only: the area takes `cap` too, as another name of horizontal
 * (decision 0240), but it is no other choice.
 */
export const CUTOFF_CHOICES = choices<DegreeDayCutoff>(
  DEGREE_DAY_CUTOFFS,
  { horizontal: 'Horizontal', vertical: 'Vertical', intermediate: 'Intermediate' },
  'horizontal',
);

/** The scales; Celsius is the area's default (spec 4.1). */
export const SCALE_CHOICES = choices<DegreeDayScale>(DEGREE_DAY_SCALES, { celsius: 'Celsius', fahrenheit: 'Fahrenheit' }, 'celsius');

/** The chill models, named by their units (decision 0241); chill portions are the area's default. */
export const CHILL_MODEL_CHOICES = choices<ChillModel>(
  CHILL_MODELS,
  { hours: 'Chill hours (0-7.2 °C)', utah: 'Utah chill units', dynamic: 'Chill portions (Dynamic)' },
  'dynamic',
);
