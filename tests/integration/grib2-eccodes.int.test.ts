/**
 * @fieldcast/grib2 against ecCodes, ECMWF's reference GRIB decoder
 * (docs/decisions/0220-grib2-decoding.md).
 *
 * 1. ecCodes writes messages of analytic fields in each packing it has (grid_simple, grid_complex,
 *    grid_complex_spatial_differencing, grid_jpeg, grid_png, grid_ccsds), each with and without a
 *    bitmap, in several scanning modes and with product templates 4.0 and 4.8
 *    (tests/integration/grib2_eccodes.py); our decoder must give ecCodes' values (codes_get_values)
 *    point by point within half the packing's step, NaN where ecCodes has none, and ecCodes' keys.
 * 2. Debian 12's ecCodes 2.28 writes spatial differencing with order 0 only, while GFS uses order 2:
 *    packages/grib2/test/encode.ts packs orders 1 and 2 (and complex packing with missing value
 *    management 1 and 2) itself. Those messages must first decode to the packed field with ecCodes
 *    and with GDAL's GRIB driver (NOAA's g2clib inside), and then ours must agree with ecCodes.
 *
 * ecCodes is Debian's python3-eccodes (with libeccodes-tools), GDAL is gdal-bin: .ci/run installs
 * them. Without them these tests fail naming what is missing, never skip.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GribError, type GribField, decodeField, readFields } from '../../packages/grib2/src/index.js';
import { type GridSpec, type MessageSpec, encodeMessage, pointsInScanningOrder } from '../../packages/grib2/test/encode.js';
import { findPython } from './python.js';

const SCRIPT = join(import.meta.dirname, 'grib2_eccodes.py');

function requirePython(): string {
  const { python, tried } = findPython('eccodes, numpy', ['/usr/bin/python3', 'python3']);
  if (python) return python;
  throw new Error(
    `ecCodes is missing: no python with eccodes and numpy (${tried.join('; ')}); install it with "apt-get install -y libeccodes-tools python3-eccodes" (Debian) or set FIELDCAST_PYTHON`,
  );
}

function requireGdal(): void {
  try {
    execFileSync('gdal_translate', ['--version'], { stdio: 'pipe' });
  } catch {
    throw new Error('GDAL is missing: gdal_translate not found; install it with "apt-get install -y gdal-bin" (Debian)');
  }
}

interface EccodesMessage {
  keys: Record<string, number | string>;
  values: Array<number | null>;
  latitudes: number[];
  longitudes: number[];
}

let python: string;
let dir: string;
beforeAll(() => {
  python = requirePython();
  requireGdal();
  dir = mkdtempSync(join(tmpdir(), 'grib2-eccodes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readWithEccodes = (file: string) =>
  JSON.parse(execFileSync(python, [SCRIPT, 'read', file], { encoding: 'utf8', maxBuffer: 1 << 28 })) as EccodesMessage[];

/** Our value at the point ecCodes names by latitude and longitude. */
function at(values: Float32Array, field: GribField, lat: number, lon: number): number {
  const { ni, nj, lat0, lon0, dLat, dLon } = field.grid;
  const row = Math.round((lat0 - lat) / dLat);
  const col = Math.round(((((lon - lon0) % 360) + 360) % 360) / dLon);
  if (row < 0 || row >= nj || col < 0 || col >= ni) throw new Error(`${lat}, ${lon} is off the grid`);
  return values[row * ni + col]!;
}

/**
 * Compares point by point within `tolerance` plus float32's rounding of the value (our values are
 * float32: finer packings, such as 24 bits of a 40 K range, are rounded to it); returns the number
 * of missing points.
 */
function expectSameValues(values: Float32Array, field: GribField, reference: EccodesMessage, tolerance: number): number {
  expect(values).toHaveLength(reference.values.length);
  let missing = 0;
  const wrong: Array<{ lat: number; lon: number; eccodes: number | null; ours: number }> = [];
  reference.values.forEach((expected, k) => {
    const [lat, lon] = [reference.latitudes[k]!, reference.longitudes[k]!];
    const ours = at(values, field, lat, lon);
    if (expected === null) missing++;
    if (expected === null ? !Number.isNaN(ours) : !(Math.abs(ours - expected) <= tolerance + Math.abs(expected) * 2 ** -24))
      wrong.push({ lat, lon, eccodes: expected, ours });
  });
  expect(wrong.slice(0, 5)).toEqual([]);
  return missing;
}

describe('messages ecCodes writes, each packing', () => {
  const GRID = { ni: 72, nj: 37, lat1: 90, lon1: 0, dlat: 5, dlon: 5 };
  const variants = [
    { name: 'scanning mode 0, product 4.0', scanningMode: 0 },
    {
      name: 'a bitmap, scanning mode 0x40 (+j), product 4.8 (a 6 h accumulation)',
      scanningMode: 0x40,
      lat1: -90,
      bitmap: true,
      productTemplate: 8,
      statistic: 1,
      range: 6,
      category: 1,
      number: 8,
      surface: 1,
      level: 0,
      field: 'precip',
      bits: 12,
    },
    { name: 'a bitmap, scanning mode 0xa0 (-i, j consecutive), 12 bits', scanningMode: 0xa0, lon1: 355, bitmap: true, bits: 12 },
    {
      name: 'scanning mode 0xc0 (-i, +j), 8 bits, product 4.8 (a 3 h maximum)',
      scanningMode: 0xc0,
      lon1: 355,
      lat1: -90,
      bits: 8,
      productTemplate: 8,
      statistic: 2,
      range: 3,
    },
  ];
  const packings = ['grid_simple', 'grid_complex', 'grid_complex_spatial_differencing', 'grid_jpeg', 'grid_png', 'grid_ccsds'];
  // 24 bits: simple packing's 32-bit window, PNG's RGB samples, CCSDS's 5-bit option ids. The
  // JPEG 2000 decoder returns at most 16 bits per sample: that message must be refused, below.
  const wide = { name: '24 bits', scanningMode: 0, bits: 24 };
  const specs = [
    ...packings.flatMap((packing) => variants.map((v) => ({ ...GRID, ...v, packing }))),
    ...packings.filter((p) => p !== 'grid_jpeg').map((packing) => ({ ...GRID, ...wide, packing })),
  ];
  let fields: GribField[];
  let reference: EccodesMessage[];
  beforeAll(() => {
    const file = join(dir, 'eccodes.grib2');
    execFileSync(python, [SCRIPT, 'make', file, JSON.stringify(specs)]);
    fields = readFields(readFileSync(file));
    reference = readWithEccodes(file);
  });

  it('finds every message ecCodes finds', () => {
    expect(fields).toHaveLength(specs.length);
    expect(reference.map((m) => m.keys.packingType)).toEqual(specs.map((s) => s.packing));
  });

  it.each(specs.map((s, k) => [`${s.packing}, ${s.name}`, k] as const))('%s', async (_name, k) => {
    const field = fields[k]!;
    const ref = reference[k]!;
    const keys = ref.keys as Record<string, number>;
    expect(field.representation.template).toBe(keys.dataRepresentationTemplateNumber);
    expect(field.representation.bitsPerValue).toBe(keys.bitsPerValue);
    expect(field.grid.scanningMode).toBe(keys.scanningMode);
    expect([field.grid.ni, field.grid.nj]).toEqual([keys.Ni, keys.Nj]);
    expect(field.bitmap !== null).toBe(keys.bitmapPresent === 1);
    expect(field.discipline).toBe(keys.discipline);
    expect([field.product.category, field.product.number]).toEqual([keys.parameterCategory, keys.parameterNumber]);
    expect([field.product.firstSurface.type, field.product.firstSurface.value]).toEqual([keys.typeOfFirstFixedSurface, keys.level]);
    expect([field.product.template, field.product.forecastTime, field.product.timeUnit]).toEqual([
      keys.productDefinitionTemplateNumber,
      keys.forecastTime,
      keys.indicatorOfUnitOfTimeRange,
    ]);
    if (field.product.template === 8) {
      const [range] = field.product.statistics!;
      expect([range!.process, range!.rangeLength, range!.rangeUnit]).toEqual([
        keys.typeOfStatisticalProcessing,
        keys.lengthOfTimeRange,
        keys.indicatorOfUnitForTimeRange,
      ]);
    }
    const date = String(keys.dataDate);
    const time = String(keys.dataTime).padStart(4, '0');
    expect(new Date(field.referenceTimeMs).toISOString()).toBe(
      `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2)}:00.000Z`,
    );

    // Half the packing's step, 2^E / 10^D (regulation 92.9.4): a value off by one packed unit fails.
    const step = 2 ** keys.binaryScaleFactor! / 10 ** keys.decimalScaleFactor!;
    const missing = expectSameValues(await decodeField(field), field, ref, step / 2);
    expect(missing > 0).toBe(keys.bitmapPresent === 1);
  });
});

it('refuses a JPEG 2000 message of more than 16 bits per value, naming the limit', async () => {
  const file = join(dir, 'jpeg24.grib2');
  execFileSync(python, [
    SCRIPT,
    'make',
    file,
    JSON.stringify([{ ni: 36, nj: 19, lat1: 90, lon1: 0, dlat: 10, dlon: 10, bits: 24, packing: 'grid_jpeg' }]),
  ]);
  const [field] = readFields(readFileSync(file));
  expect(field!.representation.template).toBe(40);
  await expect(decodeField(field!)).rejects.toThrow(new GribError('JPEG 2000 samples of 24 bits (at most 16 are decoded)'));
});

// A constant field as ecCodes writes it: no bits per value, R the value (3.25) and D left at 2.
// Read literally (regulation 92.9.4) that is 0.0325; ecCodes and our decoder give 3.25
// (docs/decisions/0420). ecCodes 2.28 writes it in these packings (PNG and complex packing fail).
describe('a constant field with decimal scale factor 2, written by ecCodes', () => {
  const packings = ['grid_simple', 'grid_jpeg', 'grid_ccsds'];
  let fields: GribField[];
  let reference: EccodesMessage[];
  beforeAll(() => {
    const file = join(dir, 'constant.grib2');
    const specs = packings.map((packing) => ({
      ni: 36,
      nj: 19,
      lat1: 90,
      lon1: 0,
      dlat: 10,
      dlon: 10,
      field: 'constant',
      decimal: 2,
      packing,
    }));
    execFileSync(python, [SCRIPT, 'make', file, JSON.stringify(specs)]);
    fields = readFields(readFileSync(file));
    reference = readWithEccodes(file);
  });

  it.each(packings.map((p, k) => [p, k] as const))('%s: every point is the reference value, as ecCodes reads it', async (packing, k) => {
    const field = fields[k]!;
    const keys = reference[k]!.keys as Record<string, number | string>;
    expect([keys.packingType, keys.bitsPerValue, keys.decimalScaleFactor]).toEqual([packing, 0, 2]);
    expect([field.representation.bitsPerValue, field.representation.decimalScale, field.representation.reference]).toEqual([0, 2, 3.25]);
    expect(new Set(reference[k]!.values)).toEqual(new Set([3.25]));
    const values = await decodeField(field);
    expect(new Set(values)).toEqual(new Set([3.25]));
    expectSameValues(values, field, reference[k]!, 0);
  });
});

describe('complex packing with spatial differencing of order 1 and 2, packed by the tests', () => {
  const temperature = (lat: number, lon: number) =>
    273.15 + 30 * Math.cos((lat * Math.PI) / 180) + 8 * Math.sin((2 * lon * Math.PI) / 180) + 0.01 * lon;
  const GLOBAL: GridSpec = { ni: 180, nj: 91, lat1: 90, lon1: 0, dLat: 2, dLon: 2 };
  const NORTH_UP: GridSpec = { ...GLOBAL, lat1: -90, scanningMode: 0x40 };
  const gaps = (lat: number, k: number) => (lat > 20 && lat < 35) || k % 97 === 5;
  // One point 2.5e6 above the rest: 2.5e8 steps of 0.01, integers past float32's 2^24, which our
  // values must take exactly as ecCodes' doubles rounded once to float32 (docs/decisions/0367).
  const OUTLIER = 1234;
  const cases: Array<{ name: string; spec: MessageSpec; missing: boolean; outlier?: boolean }> = [
    { name: '5.3 order 1', spec: { grid: GLOBAL, packing: { template: 3, decimal: 2, order: 1 } }, missing: false },
    { name: '5.3 order 2 (as GFS writes it)', spec: { grid: GLOBAL, packing: { template: 3, decimal: 2, order: 2 } }, missing: false },
    { name: '5.3 order 2, scanning mode 0x40', spec: { grid: NORTH_UP, packing: { template: 3, decimal: 1, order: 2 } }, missing: false },
    {
      name: '5.3 order 2, primary missing values',
      spec: { grid: GLOBAL, packing: { template: 3, decimal: 2, order: 2, missingManagement: 1 } },
      missing: true,
    },
    {
      name: '5.3 order 1, primary and secondary missing values',
      spec: { grid: GLOBAL, packing: { template: 3, decimal: 2, order: 1, missingManagement: 2 } },
      missing: true,
    },
    {
      name: '5.2, primary missing values',
      spec: { grid: GLOBAL, packing: { template: 2, decimal: 2, missingManagement: 1 } },
      missing: true,
    },
    {
      name: '5.3 order 2 with a bitmap (section 6), as GFS masks a field',
      spec: { grid: GLOBAL, packing: { template: 3, decimal: 2, order: 2 }, bitmap: true },
      missing: true,
    },
    { name: '5.2, integers past 2^24', spec: { grid: GLOBAL, packing: { template: 2, decimal: 2 } }, missing: false, outlier: true },
    {
      name: '5.3 order 2, integers past 2^24, primary missing values',
      spec: { grid: GLOBAL, packing: { template: 3, decimal: 2, order: 2, missingManagement: 1 } },
      missing: true,
      outlier: true,
    },
  ];
  const inputs = cases.map(({ spec, missing, outlier }) => {
    const { lat, lon } = pointsInScanningOrder(spec.grid);
    return Float64Array.from(lat, (la, k) =>
      missing && gaps(la, k) ? NaN : temperature(la, lon[k]!) + (outlier && k === OUTLIER ? 2.5e6 : 0),
    );
  });
  let file: string;
  let fields: GribField[];
  let reference: EccodesMessage[];
  beforeAll(() => {
    file = join(dir, 'packed-here.grib2');
    const messages = cases.map(({ spec }, k) => encodeMessage(inputs[k]!, spec));
    writeFileSync(file, Buffer.concat(messages));
    fields = readFields(readFileSync(file));
    reference = readWithEccodes(file);
  });

  it.each(cases.map((c, k) => [c.name, k] as const))(
    '%s: ecCodes and GDAL decode the packed field, and ours agrees with ecCodes',
    async (_name, k) => {
      const { spec } = cases[k]!;
      const input = inputs[k]!;
      const half = 0.5 * 10 ** -spec.packing.decimal + 1e-9;
      const ref = reference[k]!;
      const keys = ref.keys as Record<string, number>;
      expect(keys.dataRepresentationTemplateNumber).toBe(spec.packing.template);
      if (spec.packing.template === 3) expect(keys.orderOfSpatialDifferencing).toBe(spec.packing.order);

      // ecCodes gives back the packed field (values in the message's scanning order, as ours were packed).
      const eccodesWrong = ref.values.filter((v, i) =>
        Number.isNaN(input[i]!) ? v !== null : v === null || Math.abs(v - input[i]!) > half,
      );
      expect(eccodesWrong).toEqual([]);

      // GDAL's GRIB driver, band k + 1, as "lon lat value" lines north to south; it writes the
      // primary and secondary missing values' substitutes (9999 and 8888, set by encode.ts) where a value is missing.
      const xyz = execFileSync(
        'gdal_translate',
        ['--config', 'GRIB_NORMALIZE_UNITS', 'NO', '-q', '-b', String(k + 1), '-of', 'XYZ', file, '/vsistdout/'],
        {
          encoding: 'utf8',
          maxBuffer: 1 << 26,
        },
      );
      const byPoint = new Map<string, number>();
      for (const line of xyz.trim().split('\n')) {
        const [x, y, v] = line.trim().split(/\s+/).map(Number);
        byPoint.set(`${Math.round(y! * 1000)}:${Math.round((((x! % 360) + 360) % 360) * 1000)}`, v!);
      }
      const { lat, lon } = pointsInScanningOrder(spec.grid);
      expect(byPoint.size).toBe(input.length);
      // GDAL's g2clib reads the missing codes of groups as wide as the outlier's as values
      // (2,500,275.75 where a value is missing): ecCodes alone is the reference there.
      const gdalWrong = Array.from(input).flatMap((v, i) => {
        if (cases[k]!.outlier && cases[k]!.missing && Number.isNaN(v)) return [];
        const g = byPoint.get(`${Math.round(lat[i]! * 1000)}:${Math.round((((lon[i]! % 360) + 360) % 360) * 1000)}`);
        // GDAL reads into float32: a few units in its last place beyond the packing's half step.
        const ok =
          g !== undefined && (Number.isNaN(v) ? g === 9999 || g === 8888 : Math.abs(g - v) <= half + 1e-4 + Math.abs(v) * 2 ** -23);
        return ok ? [] : [{ lat: lat[i], lon: lon[i], packed: v, gdal: g }];
      });
      expect(gdalWrong).toEqual([]);

      // Ours, against ecCodes: the same integers, so within float32 rounding of the field's magnitude.
      const field = fields[k]!;
      const values = await decodeField(field);
      const missing = expectSameValues(values, field, ref, 1e-4);
      expect(missing > 0).toBe(cases[k]!.missing);
      if (cases[k]!.outlier) {
        const inexact = ref.values.flatMap((v, i) => {
          const ours = at(values, field, ref.latitudes[i]!, ref.longitudes[i]!);
          return v === null || ours === Math.fround(v) ? [] : [{ lat: ref.latitudes[i], lon: ref.longitudes[i], eccodes: v, ours }];
        });
        expect(inexact.slice(0, 5)).toEqual([]);
      }
    },
  );
});
