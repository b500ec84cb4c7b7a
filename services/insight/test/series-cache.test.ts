import request from 'supertest';
import { type TestFleetOptions, useTestFleet } from '@fieldcast/runtime/testing';
import { ReloadingSource, type VariableId } from '@fieldcast/weather';
import { insightService } from '../src/definition.js';
import { seriesTextCache } from '../src/series-cache.js';
import { HourlyTableSource } from './hourly-table-source.js';

/* Point series already written are served again as their text, until the hour moves on. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the series text cache', () => {
  it('computes a key once, keeps no failure, and keeps at most maxChars characters, least recently used out', async () => {
    const cache = seriesTextCache(10);
    let computed = 0;
    const text = (t: string) => () => {
      computed++;
      return Promise.resolve(t);
    };
    expect(await cache.get('a', text('aaaa'))).toBe('aaaa');
    expect(await cache.get('a', text('other'))).toBe('aaaa');
    expect(computed).toBe(1);
    await expect(cache.get('f', () => Promise.reject(new Error('no weather')))).rejects.toThrow('no weather');
    await settle();
    expect(await cache.get('f', text('ffff'))).toBe('ffff');
    expect([cache.size, cache.heldWeight]).toEqual([2, 8]);
    await cache.get('a', text('-')); // a is now the most recently used: b pushes f out
    await cache.get('b', text('bbbb'));
    await settle();
    expect([cache.size, cache.heldWeight]).toEqual([2, 8]);
    computed = 0;
    await cache.get('a', text('-'));
    await cache.get('b', text('-'));
    expect(computed).toBe(0);
    await cache.get('long', text('x'.repeat(11)));
    await settle();
    expect([cache.size, cache.heldWeight]).toEqual([2, 8]);
  });
});

describe('point series through the cache', () => {
  let nowMs = Date.UTC(2026, 5, 15, 12, 34);
  /** while set, the source's temperatures are missing (NaN): a series is 503 weather_data_missing */
  let broken = false;
  const value = (variable: VariableId): number =>
    broken && variable === 'air_temperature'
      ? Number.NaN
      : ({ air_temperature: 20, dew_point_temperature: 10, wind_speed: 2, surface_air_pressure: 101.3 }[variable as string] ?? 0);
  const source = new HourlyTableSource(value, Date.UTC(2026, 5, 15, 10, 30));
  const t = useTestFleet([insightService], { weather: source, now: () => new Date(nowMs) });
  const get = (path: string) => request(t.fleet.app('insight')).get(path).set('Authorization', t.alice.auth);
  const reads = () => source.calls.filter((c) => c.startsWith('pointSeries air_temperature')).length;

  it('a repeated request is the same text without reading the weather again; another unit, point or hour is computed', async () => {
    const path = '/hourly-evapotranspiration-short-crop/0.5/0.5?start=2026-06-14&end=2026-06-14';
    const first = await get(path);
    expect(first.status).toBe(200);
    const before = reads();
    const again = await get(path);
    expect(again.text).toBe(first.text);
    expect(reads()).toBe(before);
    expect((await get(`${path}&unit=inches`)).body.unit.label).toBe('in/hr');
    expect((await get(path.replace('0.5/0.5', '0.5/0.6'))).status).toBe(200);
    expect(reads()).toBe(before + 2);
    nowMs += 3_600_000;
    expect((await get(path)).text).toBe(first.text);
    expect(reads()).toBe(before + 3);
  });

  it('a failed series is not kept', async () => {
    const path = '/hourly-relative-humidity/0.5/0.5?start=2026-06-14T23:00:00Z&end=2026-06-14T23:00:00Z';
    broken = true;
    const failed = await get(path);
    expect([failed.status, failed.body.id]).toEqual([503, 'weather_data_missing']);
    broken = false;
    await settle();
    const ok = await get(path);
    expect(ok.status).toBe(200);
    expect(ok.body.series).toHaveLength(1);
  });
});

describe('point series kept across a reload of the weather', () => {
  const nowMs = Date.UTC(2026, 5, 15, 12, 34);
  // Two sources under one id, as a synced store opened again under its name with other hours
  // (the analysis appended in place, a run synced again with more steps): only the reload tells them apart.
  let temperature = 20;
  let stamp = 'before';
  const tableWith = (t: number) =>
    new HourlyTableSource(
      (v) => ({ air_temperature: t, dew_point_temperature: 10, wind_speed: 2, surface_air_pressure: 101.3 })[v as string] ?? 0,
      nowMs,
    );
  let weather: ReloadingSource;
  const options: TestFleetOptions = { now: () => new Date(nowMs) };
  // before the fleet starts (hooks run in order), which reads options.weather
  beforeAll(async () => {
    options.weather = weather = await ReloadingSource.open({
      stamp: async () => stamp,
      load: async () => tableWith(temperature),
      dropped: () => [],
    });
  });
  const t = useTestFleet([insightService], options);

  it('a series asked again after the weather was reloaded is computed from the weather served now', async () => {
    const path = '/hourly-relative-humidity/0.5/0.5?start=2026-06-14T23:00:00Z&end=2026-06-14T23:00:00Z';
    const get = () => request(t.fleet.app('insight')).get(path).set('Authorization', t.alice.auth);
    const before = (await get()).body.series[0].value;
    temperature = 15;
    stamp = 'after';
    expect(await weather.reload()).toBe(true);
    expect(weather.id).toBe('hourly-table');
    const after = (await get()).body.series[0].value;
    // RH at 10 °C dewpoint is higher at 15 °C than at 20 °C
    expect(after).toBeGreaterThan(before);
  });
});
