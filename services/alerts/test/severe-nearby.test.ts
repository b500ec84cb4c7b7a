import { distanceToTrackKm, haversineKm } from '@fieldcast/geo';
import { severeEvents, SyntheticSource } from '@fieldcast/weather';
import { gridAlertWeather } from '../src/domain/alert-weather.js';

/*
 * The severe weather a rule watches: every event within the radius of the place, whatever box the
 * world is searched in (docs/interface.md §12, severe-weather rules).
 */
const weather = gridAlertWeather(new SyntheticSource());
const SEASON = { startMs: Date.parse('2025-04-01T00:00:00Z'), endMs: Date.parse('2025-07-30T00:00:00Z') };

test('a tornado whose track passes within the radius is found, though no point of its track lies in the circle', async () => {
  const tornadoes = severeEvents('tornado', [-105, 30, -85, 48], SEASON).filter((e) => e.lengthKm >= 25);
  expect(tornadoes.length).toBeGreaterThan(0);
  for (const t of tornadoes.slice(0, 5)) {
    // halfway along the track's second segment (a fifth of its length): over 2 km from every point of it
    const [[lon1, lat1], [lon2, lat2]] = [t.track[1]!, t.track[2]!];
    const p = { lat: (lat1 + lat2) / 2, lon: (lon1 + lon2) / 2 };
    expect(Math.min(...t.track.map(([lon, lat]) => haversineKm(p, { lat, lon })))).toBeGreaterThan(2);
    expect(distanceToTrackKm(p, t.track)).toBeLessThan(0.1);
    const found = await weather.severe(['tornado'], p, 1, t.timeMs, t.endTimeMs);
    expect(found.map((e) => e.id)).toContain(t.id);
  }
});

test('events across the antimeridian and at high latitude are found as a search of the whole band finds them', async () => {
  const day = { startMs: Date.parse('2025-01-01T00:00:00Z'), endMs: Date.parse('2025-01-21T00:00:00Z') };
  let across = 0;
  for (const p of [
    { lat: -17.8, lon: 179.95 },
    { lat: -17.8, lon: -179.95 },
    { lat: 66, lon: 20 },
  ]) {
    const band = severeEvents('lightning', [-180, p.lat - 1, 180, p.lat + 1], day).filter((e) => haversineKm(p, e) <= 100);
    across += band.filter((e) => Math.sign(e.lon) !== Math.sign(p.lon)).length;
    const found = await weather.severe(['lightning'], p, 100, day.startMs, day.endMs);
    expect([p, found.map((e) => e.id).sort()]).toEqual([p, band.map((e) => e.id).sort()]);
  }
  // some of them across the antimeridian from the place
  expect(across).toBeGreaterThan(0);
});
