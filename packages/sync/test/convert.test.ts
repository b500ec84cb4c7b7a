/**
 * The conversions to Fieldcast's variables, each against a published example
 * or the documented semantics of the source, cited beside the case.
 */
import { decodeField, readFields } from '@fieldcast/grib2';
import { IntervalRates, toCanonical, windSpeedAt2mFromComponents } from '../src/convert.js';
import { StepDataError } from '../src/errors.js';
import { encodeMessage } from '../../grib2/test/encode.js';

const GRID = { ni: 1, nj: 1, lat1: 45, lon1: 10, dLat: 0.25, dLon: 0.25 };
const RUN = Date.UTC(2026, 11, 3, 0);

/** A one-point message of a statistic (code table 4.10 `process`) over [end - range, end] hours. */
async function stat(value: number, process: number, endHours: number, rangeHours: number, decimal = 6) {
  const [field] = readFields(
    encodeMessage([value], {
      grid: GRID,
      packing: { template: 0, decimal },
      referenceTimeMs: RUN,
      forecastHours: endHours,
      statistic: { process, rangeHours },
    }),
  );
  return { field: field!, values: await decodeField(field!) };
}

const at = (h: number) => RUN + h * 3_600_000;

describe('wind at 2 m (FAO-56 eq. 47)', () => {
  // FAO-56 (Allen et al. 1998) chapter 3, Example 14: 3.2 m/s measured at 10 m gives u2 = 2.4 m/s.
  it('gives FAO-56 Example 14: 3.2 m/s at 10 m is 2.4 m/s at 2 m', () => {
    // The 3.2 m/s vector as components (0.6 and 0.8 of it), so the speed is taken from u and v.
    const [u2] = windSpeedAt2mFromComponents(Float32Array.of(3.2 * 0.6), Float32Array.of(-3.2 * 0.8), 10);
    expect(u2).toBeCloseTo(2.4, 1);
    expect(u2).toBeCloseTo((3.2 * 4.87) / Math.log(67.8 * 10 - 5.42), 5);
  });

  it('leaves a wind measured at 2 m as it is', () => {
    expect(windSpeedAt2mFromComponents(Float32Array.of(3), Float32Array.of(4), 2)[0]).toBeCloseTo(5, 2);
  });
});

describe('units', () => {
  it('converts kelvin to degrees Celsius, pascals to kilopascals, and per-second rates to mm per hour', () => {
    const celsius = toCanonical('air_temperature', 'K', Float32Array.of(273.15, 300));
    expect(celsius[0]).toBeCloseTo(0, 4);
    expect(celsius[1]).toBeCloseTo(26.85, 4);
    expect(toCanonical('surface_air_pressure', 'Pa', Float32Array.of(101_325))[0]).toBeCloseTo(101.325, 3);
    // 1 kg m-2 of water is 1 mm; ECMWF's tp is metres of water.
    expect(toCanonical('precipitation_rate', 'kg m-2 s-1', Float32Array.of(1 / 3600))[0]).toBeCloseTo(1, 6);
    expect(toCanonical('precipitation_rate', 'm s-1', Float32Array.of(0.001 / 3600))[0]).toBeCloseTo(1, 6);
  });

  it("refuses units that are not the variable's quantity", () => {
    expect(() => toCanonical('air_temperature', 'Pa', Float32Array.of(1))).toThrow(StepDataError);
  });
});

describe('rates from statistics over intervals', () => {
  // GFS averages restart every 6 hours: "0-k hour ave" at step k is the mean of the hourly means
  // 1..k, and "6-7 hour ave" is the 7th alone (NCEP via earthscience.stackexchange.com/q/24235,
  // and wgrib2's -ncep_norm). Differencing recovers each hour's mean.
  it('recovers hourly means from GFS averages restarted every 6 hours', async () => {
    const hourly = [100, 200, 300, 250, 150, 50, 400, 350];
    const rates = new IntervalRates();
    for (let k = 1; k <= hourly.length; k++) {
      const start = 6 * Math.floor((k - 1) / 6);
      const mean = hourly.slice(start, k).reduce((s, x) => s + x, 0) / (k - start);
      const { field, values } = await stat(mean, 0, k, k - start, 4);
      const r = rates.rate('shortwave', field, values, { nonNegative: true })!;
      expect([r.startMs, r.endMs]).toEqual([at(k - 1), at(k)]);
      expect(r.perSecond[0]).toBeCloseTo(hourly[k - 1]!, 2);
    }
  });

  // ECMWF accumulates from the start of the forecast (ECMWF parameter database, tp and ssrd:
  // "accumulated from the beginning of the forecast"); step 0 is an empty accumulation.
  it('differences ECMWF accumulations from the start of the forecast into mean rates per second', async () => {
    const accumulatedM = [0, 0.003, 0.0045, 0.0045];
    const rates = new IntervalRates();
    const got: Array<number | null> = [];
    for (const [k, a] of accumulatedM.entries()) {
      const { field, values } = await stat(a, 1, 3 * k, 3 * k, 7);
      const r = rates.rate('precipitation', field, values, { nonNegative: true });
      if (r) expect([r.startMs, r.endMs]).toEqual([at(3 * k - 3), at(3 * k)]);
      got.push(r ? toCanonical('precipitation_rate', 'm s-1', r.perSecond)[0]! : null);
    }
    expect(got[0]).toBeNull();
    // 3 mm in the first 3 hours, 1.5 mm in the next, none after: 1, 0.5 and 0 mm/h.
    expect(got.slice(1).map((x) => Number(x!.toFixed(6)))).toEqual([1, 0.5, 0]);
  });

  it('divides accumulated energy by the seconds between steps: J m-2 to W m-2', async () => {
    const rates = new IntervalRates();
    await stat(0, 1, 0, 0, 0).then(({ field, values }) => rates.rate('shortwave', field, values, { nonNegative: true }));
    const { field, values } = await stat(300 * 6 * 3600, 1, 6, 6, 0);
    expect(rates.rate('shortwave', field, values, { nonNegative: true })!.perSecond[0]).toBeCloseTo(300, 3);
  });

  it('floors at 0 a difference that packing rounding makes negative', async () => {
    const rates = new IntervalRates();
    for (const [k, a] of [0.002, 0.0019999].entries()) {
      const { field, values } = await stat(a, 1, 3 * (k + 1), 3 * (k + 1), 7);
      const r = rates.rate('precipitation', field, values, { nonNegative: true })!;
      if (k === 1) expect(r.perSecond[0]).toBe(0);
    }
  });

  it('spans a missing step, and takes a restarted interval whole', async () => {
    const rates = new IntervalRates();
    const steps: Array<[number, number, number]> = [
      // [end, range, mean]: 0-2 at 100, 0-4 at 150 (step 3 missing), then 6-8 after a restart (5-7 missing).
      [2, 2, 100],
      [4, 4, 150],
      [8, 2, 80],
    ];
    const out = [];
    for (const [end, rangeHours, mean] of steps) {
      const { field, values } = await stat(mean, 0, end, rangeHours, 3);
      out.push(rates.rate('shortwave', field, values, { nonNegative: true })!);
    }
    expect(out.map((r) => [(r.startMs - RUN) / 3.6e6, (r.endMs - RUN) / 3.6e6, Number(r.perSecond[0]!.toFixed(3))])).toEqual([
      [0, 2, 100],
      [2, 4, 200],
      [6, 8, 80],
    ]);
  });

  it('refuses steps out of order and statistics that are not averages or accumulations', async () => {
    const rates = new IntervalRates();
    const later = await stat(1, 1, 6, 6);
    const earlier = await stat(1, 1, 3, 3);
    rates.rate('p', later.field, later.values, { nonNegative: true });
    expect(() => rates.rate('p', earlier.field, earlier.values, { nonNegative: true })).toThrow(/after one ending/);
    const max = await stat(1, 2, 6, 6);
    expect(() => new IntervalRates().rate('p', max.field, max.values, { nonNegative: true })).toThrow(
      /neither an average nor an accumulation/,
    );
  });
});
