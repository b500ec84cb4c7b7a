import { SyntheticSource } from '../src/index.js';

/*
 * The daily maximum of a whole global day, as the transfer area's global daily GeoTIFF reads it:
 * the synthetic grid points nearest the centres of the 0.25-degree cells (1440 x 720,
 * docs/decisions/0162-dataset-grids-and-names.md), in one sub-grid read of the daily maximum
 * (its anchors only, no hourly curve). Earth's lowest recorded temperature is -89.2 degC
 * (Vostok, 21 July 1983; WMO Weather and Climate Extremes Archive): no day's warmest hour
 * anywhere may be below it (docs/decisions/0212-polar-sea-climate-floor.md).
 */
const RECORD_LOW_C = -89.2;
/**
 * The lowest daily maximum the open sea may take: the coldest monthly mean of any sea in the
 * climatology (-39 degC, the Ross Ice Shelf in July, 0082) less the largest synoptic anomaly at
 * 70 S ((4 + 2) K x 1.16, climate.ts) and a margin of as much again.
 */
const LOWEST_SEA_DAILY_MAX_C = -39 - 2 * 7;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const world = new SyntheticSource();

describe('daily maxima in the austral winter', () => {
  it('2024-07-20: none of the global day is below Earth’s record low; the coldest is the maximum of its local day’s hourly values', async () => {
    const dayMs = Date.UTC(2024, 6, 20);
    const lats = Float64Array.from({ length: 720 }, (_, i) => -89.875 + i * 0.25);
    const lons = Float64Array.from({ length: 1440 }, (_, i) => -179.875 + i * 0.25);
    const [tmax] = await world.subgrid(['air_temperature_daily_max'], lats, lons, { startMs: dayMs, endMs: dayMs });
    let coldest = 0;
    tmax!.values.forEach((v, k) => {
      if (v < tmax!.values[coldest]!) coldest = k;
    });
    const lowest = tmax!.values[coldest]!;
    expect(lowest).toBeGreaterThan(RECORD_LOW_C);
    // The hourly values of that place's local solar day (UTC + lon/15 h, temperature.ts) never exceed it, and reach it.
    const lat = tmax!.lats[Math.floor(coldest / 1440)]!;
    const lon = tmax!.lons[coldest % 1440]!;
    const firstHour = Math.ceil(dayMs / HOUR - lon / 15);
    expect(Math.floor((firstHour + lon / 15) / 24)).toBe(dayMs / DAY);
    expect(Math.floor((firstHour + 23 + lon / 15) / 24)).toBe(dayMs / DAY);
    const hourly = await world.pointSeries('air_temperature', lon, lat, { startMs: firstHour * HOUR, endMs: (firstHour + 23) * HOUR });
    expect(hourly.values).toHaveLength(24);
    expect(Math.max(...hourly.values)).toBeCloseTo(lowest, 4);
  }, 120_000);

  it('2024-06-01 over the open sea at 70.6 S 132.9 W, where the GeoTIFF read -88.2 degC: above what any sea allows', async () => {
    const dayMs = Date.UTC(2024, 5, 1);
    const { tmax } = await world.dailyExtremesAt(-132.875, -70.625, { startMs: dayMs, endMs: dayMs });
    expect(tmax.values[0]).toBeGreaterThan(LOWEST_SEA_DAILY_MAX_C);
  });
});
