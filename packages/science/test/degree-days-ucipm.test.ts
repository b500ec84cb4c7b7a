import { readFileSync } from 'node:fs';
import { DEGREE_DAY_CUTOFFS, type DegreeDayCutoff, type DegreeDayMethod, degreeDays } from '../src/degree-days.js';

/*
 * Every curve method and cutoff against UC IPM's own calculator (ipm.ucanr.edu/WEATHER), the
 * reference of the agronomy world: its daily results for a year of the Esparto A CIMIS station's
 * minima and maxima (°F, 2020) with a lower threshold of 50 °F and an upper of 70 °F, as the
 * UC ANR IGIS "Degree Days Validation Challenge" publishes them
 * (github.com/UCANR-IGIS/degree-day-challenge, docs/submissions/heatunits_py/ucipm_low50_high70_all.csv,
 * MIT licence; docs/data-sources.md). The year covers all six cases of a day against the two
 * thresholds. UC IPM prints two decimals, so each day must round to its value.
 */
const CSV = readFileSync(new URL('./data/ucipm-esparto-a-2020-low50-high70.csv', import.meta.url), 'utf8');
const [header, ...lines] = CSV.trim().split('\n');
const columns = header!.split(',');
const days = lines.map((line) => {
  const cells = line.split(',');
  return { date: cells[0]!, value: (column: string) => Number(cells[columns.indexOf(column)]) };
});

const METHODS: [string, DegreeDayMethod][] = [
  ['sngsine', 'single-sine'],
  ['dblsine', 'double-sine'],
  ['sngtri', 'single-triangle'],
  ['dbltri', 'double-triangle'],
];
const CUTOFFS: Record<DegreeDayCutoff, string> = { horizontal: 'horiz', vertical: 'vert', intermediate: 'intrmd' };
/**
 * Half a unit of the last printed decimal, and a ten-thousandth: UC IPM's arithmetic is not
 * quite double precision, and three of its days lie within 3e-5 of a rounding boundary (24
 * February, single sine: 8.714977 here, printed 8.72 there).
 */
const ROUNDING = 0.005 + 1e-4;

describe('UC IPM degree-day calculator, Esparto A 2020, 50 / 70 °F', () => {
  it('has the 366 days of 2020', () => {
    expect(days).toHaveLength(366);
    expect([days[0]!.date, days[365]!.date]).toEqual(['1/1/2020', '12/31/2020']);
  });

  for (const [prefix, method] of METHODS) {
    for (const cutoff of DEGREE_DAY_CUTOFFS) {
      it(`${method}, ${cutoff} cutoff: every day as UC IPM prints it`, () => {
        // The last day's next minimum is 2021's, not in the table: UC IPM's double value for it is
        // its single one, as the day's own minimum gives.
        const off = days.flatMap((day, i) => {
          const next = days[i + 1] ?? day;
          const ours = degreeDays(day.value('tmax'), day.value('tmin'), { method, base: 50, cap: 70, cutoff }, next.value('tmin'));
          const theirs = day.value(`${prefix}_${CUTOFFS[cutoff]}`);
          return Math.abs(ours - theirs) <= ROUNDING ? [] : [`${day.date}: ${ours.toFixed(4)}, UC IPM ${theirs}`];
        });
        expect(off).toEqual([]);
      });
    }
  }

  it('gives the season totals UC IPM’s daily values add up to', () => {
    for (const [prefix, method] of METHODS) {
      for (const cutoff of DEGREE_DAY_CUTOFFS) {
        let ours = 0;
        let theirs = 0;
        days.forEach((day, i) => {
          ours += degreeDays(
            day.value('tmax'),
            day.value('tmin'),
            { method, base: 50, cap: 70, cutoff },
            (days[i + 1] ?? day).value('tmin'),
          );
          theirs += day.value(`${prefix}_${CUTOFFS[cutoff]}`);
        });
        // 366 roundings of at most half a hundredth each
        expect(Math.abs(ours - theirs)).toBeLessThan(366 * ROUNDING);
      }
    }
  });
});
