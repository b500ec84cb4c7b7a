import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHILL_MODELS, DEGREE_DAY_CUTOFFS, DEGREE_DAY_METHODS, DEGREE_DAY_SCALES } from '@fieldcast/science';
import { CHILL_MODEL_CHOICES, CUTOFF_CHOICES, METHOD_CHOICES, SCALE_CHOICES } from '../src/browser/choices.js';

/*
 * The degree-day panel's and the point panel's choices are the lists the agriculture area takes
 * them from (@fieldcast/science; docs/decisions/0439-console-choices-from-science-and-deleted-resources.md):
 * a method, cutoff, chill model or scale added there is offered here, by a readable name.
 */
const values = (choices: readonly { value: string }[]) => choices.map((c) => c.value);

describe("the console's degree-day and chill choices", () => {
  it('offers every method, cutoff, scale and chill model the science package has, in its order', () => {
    expect(values(METHOD_CHOICES)).toEqual([...DEGREE_DAY_METHODS]);
    expect(values(CUTOFF_CHOICES)).toEqual([...DEGREE_DAY_CUTOFFS]);
    expect(values(SCALE_CHOICES)).toEqual([...DEGREE_DAY_SCALES]);
    expect(values(CHILL_MODEL_CHOICES)).toEqual([...CHILL_MODELS]);
  });

  it('offers no alias: `cap` is another name of the horizontal cutoff, which the area takes but no one chooses', () => {
    expect(values(CUTOFF_CHOICES)).not.toContain('cap');
  });

  it('names each choice in words a person reads, not as the query spells it', () => {
    for (const { value, label } of [...METHOD_CHOICES, ...CUTOFF_CHOICES, ...SCALE_CHOICES, ...CHILL_MODEL_CHOICES]) {
      expect(label).toMatch(/^[A-Z]/);
      expect(label).not.toBe(value);
      expect(label).not.toMatch(/[a-z]-[a-z]/);
    }
    expect(METHOD_CHOICES.find((c) => c.value === 'modified-average')?.label).toBe('Modified average');
    expect(CHILL_MODEL_CHOICES.find((c) => c.value === 'dynamic')?.label).toBe('Chill portions (Dynamic)');
  });

  it("selects the area's defaults: average, horizontal, Celsius and chill portions", () => {
    const selected = (choices: readonly { value: string; selected?: boolean }[]) => choices.filter((c) => c.selected).map((c) => c.value);
    expect([METHOD_CHOICES, CUTOFF_CHOICES, SCALE_CHOICES, CHILL_MODEL_CHOICES].map(selected)).toEqual([
      ['average'],
      ['horizontal'],
      ['celsius'],
      ['dynamic'],
    ]);
  });

  it('leaves the page no options of its own to drift from the lists', () => {
    const page = readFileSync(join(process.cwd(), 'packages/console/src/browser/index.html'), 'utf8');
    for (const id of ['gdd-scale', 'gdd-method', 'gdd-cutoff', 'chill-model']) {
      expect(page).toMatch(new RegExp(`<select id="${id}"></select`));
    }
  });
});
