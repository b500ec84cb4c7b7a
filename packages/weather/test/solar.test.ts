import {
  extraterrestrialRadiationDaily,
  extraterrestrialRadiationHourly,
  hourlySolarGeometry,
  seasonalCorrection,
  solarDeclination,
  inverseRelativeDistance,
  sunsetHourAngle,
} from '@fieldcast/science';
import { daylight, dayOfYear, extraterrestrialRadiationPeriod, hourAngle, hourPeriod, solarPeriod } from '../src/synthetic/solar.js';

const DEG = Math.PI / 180;

describe('synthetic solar geometry: the forms on per-day terms agree with @fieldcast/science', () => {
  it('hour angle equals science hourlySolarGeometry hour angle (normalised to [-pi, pi))', () => {
    for (const lon of [-179.99, -100.37, 0, 12.5, 150, 179.99]) {
      for (const day of [19000, 19100, 19250]) {
        const j = dayOfYear(day);
        for (let h = 0; h < 24; h++) {
          const w = hourAngle(24 * day + h, lon, seasonalCorrection(j));
          const ref = hourlySolarGeometry(0, lon, j, h).hourAngle;
          // science keeps (-pi, pi]; both name the same angle
          const d = Math.abs(w - ref);
          expect(Math.min(d, Math.abs(d - 2 * Math.PI))).toBeLessThan(1e-9);
        }
      }
    }
  });

  it('period Ra equals science extraterrestrialRadiationHourly, night, sunrise hours, nights under an hour and polar day included', () => {
    for (const lat of [-70, -66.45, -33.4, 0, 45.12, 66.45, 69, 80]) {
      for (const day of [19000, 19165, 19350]) {
        const j = dayOfYear(day);
        const decl = solarDeclination(j);
        const ws = sunsetHourAngle(lat, decl);
        for (const lon of [-75.5, 0, 100]) {
          for (let h = 0; h < 24; h++) {
            const w = hourAngle(24 * day + h, lon, seasonalCorrection(j));
            const ra = extraterrestrialRadiationPeriod(
              Math.sin(lat * DEG),
              Math.cos(lat * DEG),
              Math.sin(decl),
              Math.cos(decl),
              inverseRelativeDistance(j),
              hourPeriod(w),
              daylight(ws),
            );
            const ref = extraterrestrialRadiationHourly(lat, lon, j, h);
            // Polar day included: both count the whole hour around local midnight, which
            // straddles w = +-pi (the sun is up all hour; docs/decisions/0012-hourly-cloudiness-and-polar-hours.md).
            expect(ra).toBeCloseTo(ref, 9);
          }
        }
      }
    }
  });

  it('a night shorter than the hour: the hour holding sunset and sunrise counts both sunlit ends, and the day sums to eq. 21', () => {
    // 66.45 N at the June solstice (Rovaniemi is at 66.5 N): ws ~ 176 degrees, a night of ~0.8 h.
    const lat = 66.45,
      day = 19165,
      j = dayOfYear(day),
      decl = solarDeclination(j),
      ws = sunsetHourAngle(lat, decl);
    expect(24 - (24 * ws) / Math.PI).toBeGreaterThan(0.5);
    expect(24 - (24 * ws) / Math.PI).toBeLessThan(1);
    const ra = (w1: number, w2: number) =>
      extraterrestrialRadiationPeriod(
        Math.sin(lat * DEG),
        Math.cos(lat * DEG),
        Math.sin(decl),
        Math.cos(decl),
        inverseRelativeDistance(j),
        solarPeriod(w1, w2),
        daylight(ws),
      );
    // The hour centred on local midnight (w = pi) holds the whole night: its sunlit parts are
    // the two ends of [pi - pi/24, pi + pi/24] outside (ws, 2 pi - ws), equal by symmetry.
    const midnight = ra(Math.PI - Math.PI / 24, Math.PI + Math.PI / 24);
    const evening = ra(Math.PI - Math.PI / 24, Math.PI);
    expect(evening).toBeGreaterThan(0);
    expect(midnight).toBeCloseTo(2 * evening, 12);
    // 24 consecutive hours cover one solar day, whatever the start: their sum is the daily Ra.
    for (const start of [-Math.PI, -Math.PI + 0.1, 0.3]) {
      let sum = 0;
      for (let h = 0; h < 24; h++) sum += ra(start + (h * Math.PI) / 12, start + ((h + 1) * Math.PI) / 12);
      expect(sum).toBeCloseTo(extraterrestrialRadiationDaily(lat, j), 9);
    }
  });
});
