import { LIMITS } from '../src/domain/conditions.js';
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
