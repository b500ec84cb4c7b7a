import { SyntheticSource } from '@fieldcast/weather';
import { gridAlertWeather } from '../src/domain/alert-weather.js';
import { measure } from '../src/domain/measure.js';
import type { Condition } from '../src/schemas.js';
import { SAME_PLACES } from '@fieldcast/runtime/testing';

/*
 * A rule measures one place one value (docs/decisions/0428-one-point-read-per-place.md): every
 * longitude at a pole is the one pole, and longitude 180 is -180, whichever weather the rule reads.
 */
const NOW_MS = Date.UTC(2025, 5, 20, 10, 30);
const weather = gridAlertWeather(new SyntheticSource({ now: () => NOW_MS }));

const CONDITIONS: Condition[] = [
  // A base below the poles' summer, so their degree days are not all zero.
  { kind: 'degree-days', start: '2025-06-01', threshold: 100, base: -40 },
  { kind: 'frost', threshold: 0, hours: 48 },
  { kind: 'precipitation', threshold: 1, hours: 48 },
  { kind: 'reference-et', threshold: 1, days: 2 },
  { kind: 'severe-weather', radiusKm: 100, hours: 48 },
];

describe.each(SAME_PLACES)('(%p, %p) is (%p, %p)', (lon, lat, placeLon, placeLat) => {
  it.each(CONDITIONS.map((c) => [c.kind, c] as const))('%s', async (_kind, condition) => {
    expect(await measure(condition, { lon, lat }, NOW_MS, weather)).toEqual(
      await measure(condition, { lon: placeLon, lat: placeLat }, NOW_MS, weather),
    );
  });
});
