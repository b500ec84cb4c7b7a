import { LIMITS } from '../src/domain/limits.js';
import { measure } from '../src/domain/measure.js';
import { ScriptedWeather } from './scripted-weather.js';

const DAY_MS = 86_400_000;
const AT = { lon: -93.63, lat: 42.03 };
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

describe('degree days of a rule: at most one season (docs/decisions/0272-alert-rule-kinds.md)', () => {
  // 5 °C·d a day by the average method: (20 + 10) / 2 - 10.
  const condition = { kind: 'degree-days', start: '2025-06-15', threshold: 100 } as const;

  it('reads from start through today while the season lasts', async () => {
    const weather = new ScriptedWeather();
    const m = await measure(condition, AT, day('2026-06-15') + 10 * 3600_000, weather);
    expect(weather.reads).toEqual(['daily 2025-06-15T00:00:00.000Z 2026-06-15T00:00:00.000Z']);
    expect(m.value).toBe(5 * LIMITS.degreeDayDays);
  });

  it('a rule older than its season reads the season only, and its total stops growing', async () => {
    const weather = new ScriptedWeather();
    const m = await measure(condition, AT, day('2027-12-01'), weather);
    expect(weather.reads).toEqual(['daily 2025-06-15T00:00:00.000Z 2026-06-15T00:00:00.000Z']);
    expect(m.value).toBe(5 * LIMITS.degreeDayDays);
    // The double methods read the next day's minimum too: one day more, never the days after.
    await measure({ ...condition, method: 'double-sine' }, AT, day('2027-12-01'), weather);
    const [first, last] = weather.reads[1]!.split(' ').slice(1).map(Date.parse) as [number, number];
    expect([new Date(first).toISOString(), (last - first) / DAY_MS + 1]).toEqual(['2025-06-15T00:00:00.000Z', LIMITS.degreeDayDays + 1]);
  });
});

describe("a degree-day rule's cutoff", () => {
  // Days of 20 and 10 °C by the single triangle, L 10, U 15: E(10) = 5, E(15) = 5² / 20 = 1.25 and
  // a half of the day above U: horizontal 5 - 1.25 = 3.75, vertical 3.75 - 5 x 0.5 = 1.25 a day.
  const condition = { kind: 'degree-days', start: '2026-06-01', threshold: 100, method: 'single-triangle', cap: 15 } as const;
  const at = day('2026-06-10') + 3600_000;

  it('cap names the horizontal cutoff, as on the degree-day query (docs/decisions/0240-degree-day-cutoffs.md)', async () => {
    const alone = await measure(condition, AT, at, new ScriptedWeather());
    const named = await measure({ ...condition, cutoff: 'cap' }, AT, at, new ScriptedWeather());
    const vertical = await measure({ ...condition, cutoff: 'vertical' }, AT, at, new ScriptedWeather());
    expect([alone.value, named.value, vertical.value]).toEqual([3.75 * 10, 3.75 * 10, 1.25 * 10]);
  });
});

describe('a missing hour decides nothing (docs/decisions/0272-alert-rule-kinds.md)', () => {
  /** A forecast whose third hour is missing (NaN), as a store's unwritten step reads. */
  class GappedWeather extends ScriptedWeather {
    override async hourly(...args: Parameters<ScriptedWeather['hourly']>) {
      const s = await super.hourly(...args);
      const values = Float32Array.from(s.values);
      values[2] = Number.NaN;
      return { ...s, values };
    }
  }

  it('frost: the missing hour may be the coldest, so the lowest is not known', async () => {
    const m = await measure({ kind: 'frost', threshold: 0, hours: 24 }, AT, day('2026-06-15') + 3600_000, new GappedWeather());
    expect(m.value).toBeNaN();
  });

  it('precipitation: the missing hour may be the wettest', async () => {
    const m = await measure({ kind: 'precipitation', threshold: 0, hours: 24 }, AT, day('2026-06-15') + 3600_000, new GappedWeather());
    expect(m.value).toBeNaN();
  });
});
