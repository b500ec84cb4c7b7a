import { UnavailableError } from '@fieldcast/kit';
import { chillQuerySchema } from '@fieldcast/schemas';
import {
  type BBox,
  type GridSource,
  type GridWindow,
  type PointSeries,
  SingleReadsSource,
  type TimeRange,
  type VariableId,
  type VariableInfo,
} from '@fieldcast/weather';
import { fieldChill, locationChill } from '../src/domain/chill.js';
import { fieldRecord } from '../src/domain/fields.js';

/*
 * The chill models count hours: chillR's Chilling_Hours, Utah_Model and Dynamic_Model take "a
 * vector of hourly temperatures" (chillR R/temp_models.R, man/Dynamic_Model.Rd), one value per
 * hour. A source whose air temperature comes at another step is read at its whole hours, never
 * counted a step as an hour (docs/decisions/0381-chill-reads-whole-hours.md).
 */
const HOUR_MS = 3_600_000;
const NOW = Date.UTC(2024, 11, 15, 12);
const START_MS = Date.UTC(2024, 0, 1);
/** 5 °C (a chill hour, 0-7.2 °C) for the first 36 hours from 2024-01-01 00:00Z, then 12 °C (none) */
const temperatureAt = (ms: number) => (ms < START_MS + 36 * HOUR_MS ? 5 : 12);

/** Air temperature in °C on 1 degree cells, stamped every `stepMs` from 2023-12-01 00:00Z. */
class SteppedSource extends SingleReadsSource implements GridSource {
  readonly id = 'stepped';
  readonly label = 'stepped';
  readonly grid = { lat0: -89.5, lon0: -179.5, dLat: 1, dLon: 1, nLat: 180, nLon: 360 };
  private readonly firstMs = Date.UTC(2023, 11, 1);
  constructor(private readonly stepMs: number) {
    super();
  }
  coverage(): TimeRange {
    return { startMs: this.firstMs, endMs: NOW };
  }
  variables(): VariableInfo[] {
    return [
      { id: 'air_temperature', standardName: 'air_temperature', cellMethods: '', units: 'degC', description: '', stepMs: this.stepMs },
    ];
  }
  private stamps(range: TimeRange): number[] {
    const out: number[] = [];
    const first = this.firstMs + Math.ceil((range.startMs - this.firstMs) / this.stepMs) * this.stepMs;
    for (let t = first; t <= range.endMs; t += this.stepMs) out.push(t);
    return out;
  }
  async pointSeries(variable: VariableId, _lon: number, _lat: number, range: TimeRange): Promise<PointSeries> {
    const stamps = this.stamps(range);
    return {
      variable,
      units: 'degC',
      startMs: stamps[0]!,
      stepMs: this.stepMs,
      values: Float32Array.from(stamps, temperatureAt),
      productOf: () => 'stepped',
    };
  }
  async window(variable: VariableId, bbox: BBox, range: TimeRange): Promise<GridWindow> {
    const stamps = this.stamps(range);
    const lats: number[] = [],
      lons: number[] = [];
    for (let lat = -89.5; lat <= 89.5; lat++) if (lat >= bbox[1] && lat <= bbox[3]) lats.push(lat);
    for (let lon = -179.5; lon <= 179.5; lon++) if (lon >= bbox[0] && lon <= bbox[2]) lons.push(lon);
    const cells = lats.length * lons.length;
    const values = new Float32Array(stamps.length * cells);
    stamps.forEach((t, k) => values.fill(temperatureAt(t), k * cells, (k + 1) * cells));
    return {
      variable,
      units: 'degC',
      lats: Float64Array.from(lats),
      lons: Float64Array.from(lons),
      dLat: 1,
      dLon: 1,
      startMs: stamps[0]!,
      stepMs: this.stepMs,
      nt: stamps.length,
      values,
      productOf: () => 'stepped',
    };
  }
  async slice(variable: VariableId, bbox: BBox, timeMs: number): Promise<GridWindow> {
    return this.window(variable, bbox, { startMs: timeMs, endMs: timeMs });
  }
}

const query = (q: Record<string, string | undefined>) => chillQuerySchema(() => new Date(NOW)).parse(q);
const TWO_DAYS = { model: 'hours', start: '2024-01-01', end: '2024-01-02' };
const field = fieldRecord('f6b0c6d4-7d3c-4b8e-9d55-0a4c1e2f3a4b', 'alice', {
  description: 'orchard',
  type: 'GeometryCollection',
  geometries: [
    {
      type: 'Polygon',
      coordinates: [
        [
          [10.1, 44.1],
          [10.9, 44.1],
          [10.9, 44.9],
          [10.1, 44.9],
          [10.1, 44.1],
        ],
      ],
    },
  ],
});

describe('chill reads the temperature at whole hours (chillR: one value per hour)', () => {
  it('hourly stamps: the 36 chill hours, daily 24 and 12, at a point and over a field', async () => {
    const source = new SteppedSource(HOUR_MS);
    const at = await locationChill(source, query({ ...TWO_DAYS, include: 'daily' }), 44.5, 10.5);
    expect(at).toMatchObject({
      chill: 36,
      daily: [
        { date: '2024-01-01', chill: 24 },
        { date: '2024-01-02', chill: 12, accumulated: 36 },
      ],
    });
    expect(await fieldChill(source, field, query(TWO_DAYS))).toMatchObject({
      chill: 36,
      fieldMean: 36,
      fieldMaximum: 36,
      fieldMinimum: 36,
    });
  });

  it('half-hourly stamps: the same, from the stamps on the hours, not a half hour counted as an hour', async () => {
    const source = new SteppedSource(HOUR_MS / 2);
    const at = await locationChill(source, query({ ...TWO_DAYS, include: 'daily' }), 44.5, 10.5);
    expect(at).toMatchObject({ chill: 36, daily: [{ chill: 24 }, { chill: 12, accumulated: 36 }] });
    expect(await fieldChill(source, field, query(TWO_DAYS))).toMatchObject({
      chill: 36,
      fieldMean: 36,
      fieldMaximum: 36,
      fieldMinimum: 36,
    });
  });

  it.each(['dynamic', 'utah', 'hours'])(
    '3-hourly stamps (%s): 503 weather_data_missing, not 16 three-hour steps counted as hours',
    async (model) => {
      const source = new SteppedSource(3 * HOUR_MS);
      for (const include of [{}, { include: 'daily' }]) {
        const q = query({ ...TWO_DAYS, model, ...include });
        await expect(locationChill(source, q, 44.5, 10.5)).rejects.toThrow(UnavailableError);
        await expect(locationChill(source, q, 44.5, 10.5)).rejects.toMatchObject({ code: 'weather_data_missing', message: /hourly/ });
        await expect(fieldChill(source, field, q)).rejects.toMatchObject({ code: 'weather_data_missing' });
      }
    },
  );
});
