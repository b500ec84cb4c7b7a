/**
 * Precipitation type synced from each source in the catalog's codes (PRECIPITATION_TYPE, packages/
 * weather: 0 none, 1 rain, 2 snow, 3 freezing rain, 4 ice pellets;
 * docs/decisions/0502-precipitation-type-synced-from-the-sources.md): GFS's categorical fields
 * against NCEP's GRIB2 table 4.2-0-1 and code table 4.222, ECMWF's ptype against WMO code table
 * 4.201; a value that is no code refused with its step; the run store's hours between steps take a
 * step's code, never a blend.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LatLonGrid } from '@fieldcast/grib2';
import { createCatalog, PRECIPITATION_TYPE, readSourceRegistry, syncedProductsOf, ZarrSource } from '@fieldcast/weather';
import { ECMWF_PTYPE, GFS_CATEGORIES, PARAMETERS, StepDataError, fromEcmwfPtype, fromGfsCategories, syncRun } from '../src/index.js';
import type { ConvertedStep } from '../src/run.js';
import { writeRunStore } from '../src/run-store.js';
import { stageStep, stagedSteps } from '../src/staging.js';
import { useArchive } from './archive-server.js';
import { ECMWF_GRID, ECMWF_PTYPE_COLUMNS, GFS_CATEGORY_COLUMNS, GFS_GRID, columnOf, writeEcmwfStep, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const { none, rain, snow, freezingRain, icePellets } = PRECIPITATION_TYPE;

/** NCEP GRIB2 table 4.2-0-1 (https://www.nco.ncep.noaa.gov/pmb/docs/grib2/grib2_doc/grib2_table4-2-0-1.shtml), its local entries 192-195. */
const NCEP_4_2_0_1 = { 192: 'CRAIN', 193: 'CFRZR', 194: 'CICEP', 195: 'CSNOW' };

/**
 * WMO code table 4.201, precipitation type (WMO Manual on Codes, FM 92 GRIB edition 2; 0 as ECMWF
 * writes it, "no precipitation"), and the catalog's code of each value ECMWF's ptype takes
 * (paramId 260015, https://codes.ecmwf.int/grib/param-db/260015); null: a value ptype never takes.
 */
const WMO_4_201: ReadonlyArray<[number, string, number | null]> = [
  [0, 'no precipitation', none],
  [1, 'rain', rain],
  [2, 'thunderstorm', null],
  [3, 'freezing rain', freezingRain],
  [4, 'mixed/ice', null],
  [5, 'snow', snow],
  [6, 'wet snow', snow],
  [7, 'mixture of rain and snow', snow],
  [8, 'ice pellets', icePellets],
  [9, 'graupel', null],
  [10, 'hail', null],
  [11, 'drizzle', null],
  [12, 'freezing drizzle', freezingRain],
  [255, 'missing', null],
];

/** GFS's four fields, one point each, from the names that are 1. */
const flags = (...yes: string[]) =>
  new Map(GFS_CATEGORIES.map((c) => [c.quantity, Float32Array.of(yes.includes(c.name) ? 1 : 0)] as const));

describe('the codes', () => {
  it('fetches GFS’s categories by the numbers of NCEP table 4.2-0-1 and ECMWF’s ptype as WMO 0/1/19', () => {
    const gfs = PARAMETERS['gfs-0p25'].filter((p) => p.quantity.startsWith('categorical_'));
    expect(gfs.map((p) => [p.wmo![2], 'variable' in p.match && p.match.variable])).toEqual(
      Object.entries(NCEP_4_2_0_1).map(([n, name]) => [Number(n), name]),
    );
    expect(gfs.every((p) => p.wmo![0] === 0 && p.wmo![1] === 1 && p.statistic === 'instant' && p.surface.type === 1)).toBe(true);
    const ptype = PARAMETERS['ecmwf-ifs-0p25'].find((p) => p.quantity === 'precipitation_type')!;
    expect([ptype.wmo, ptype.statistic, ptype.surface.type]).toEqual([[0, 1, 19], 'instant', 1]);
  });

  it('gives each GFS category alone its type, none where all are 0 (NCEP code table 4.222: 0 no, 1 yes)', () => {
    const one = (...yes: string[]) => fromGfsCategories(1, flags(...yes))[0];
    expect([one(), one('CRAIN'), one('CSNOW'), one('CFRZR'), one('CICEP')]).toEqual([none, rain, snow, freezingRain, icePellets]);
  });

  it('resolves several GFS categories at once by NCEP’s precedence: freezing rain, snow, ice pellets, rain', () => {
    const one = (...yes: string[]) => fromGfsCategories(1, flags(...yes))[0];
    expect(one('CRAIN', 'CSNOW')).toBe(snow);
    expect(one('CRAIN', 'CICEP')).toBe(icePellets);
    expect(one('CSNOW', 'CICEP')).toBe(snow);
    expect(one('CSNOW', 'CFRZR')).toBe(freezingRain);
    expect(one('CRAIN', 'CFRZR', 'CICEP', 'CSNOW')).toBe(freezingRain);
  });

  it('keeps a missing GFS value missing and refuses a value that is no code of table 4.222, or a category missing', () => {
    const nan = flags('CSNOW');
    nan.set('categorical_rain', Float32Array.of(NaN));
    expect(fromGfsCategories(1, nan)[0]).toBeNaN();
    for (const bad of [0.5, 2, -1]) {
      const values = flags('CRAIN');
      values.set('categorical_snow', Float32Array.of(bad));
      expect(() => fromGfsCategories(4, values)).toThrow(
        new StepDataError(`step 4 h: CSNOW is ${bad} at grid point 0, neither 0 nor 1 (NCEP code table 4.222)`),
      );
    }
    const three = flags('CRAIN');
    three.delete('categorical_ice_pellets');
    expect(() => fromGfsCategories(0, three)).toThrow(/step 0 h: CICEP missing beside the other categorical precipitation types/);
  });

  it('maps every value of WMO code table 4.201 ECMWF’s ptype takes, and refuses the others', () => {
    for (const [value, meaning, code] of WMO_4_201) {
      if (code === null) {
        expect([meaning, ECMWF_PTYPE.has(value)]).toEqual([meaning, false]);
        expect(() => fromEcmwfPtype(3, Float32Array.of(0, value))).toThrow(
          new RegExp(`^step 3 h: ptype is ${value} at grid point 1, no precipitation type ECMWF's ptype writes \\(WMO code table 4.201`),
        );
      } else expect([meaning, fromEcmwfPtype(3, Float32Array.of(value))[0]]).toEqual([meaning, code]);
    }
    expect(() => fromEcmwfPtype(3, Float32Array.of(1.5))).toThrow(StepDataError);
    expect(fromEcmwfPtype(3, Float32Array.of(NaN))[0]).toBeNaN();
  });
});

const GFS_RUN = Date.UTC(2026, 11, 3, 6);
const ECMWF_RUN = Date.UTC(2026, 11, 3, 0);
const BAD_RUN = Date.UTC(2026, 11, 3, 12);
/** ECMWF's ptype by step: rain at 3 h, snow at 6 h. */
const ptypeAt = (step: number) => () => (step === 3 ? 1 : step === 6 ? 5 : 0);

const t = useArchive('ptype', (root) => {
  for (let s = 0; s <= 2; s++) writeGfsStep(root, GFS_RUN, s);
  for (const s of [0, 3, 6]) writeEcmwfStep(root, ECMWF_RUN, s, ptypeAt(s));
  // Thunderstorm (WMO 4.201 value 2) at one point of the last step.
  for (const s of [0, 3]) writeEcmwfStep(root, BAD_RUN, s, (la, lo) => (s === 3 && la === 45 && lo === -4 ? 2 : 1));
});

const sync = (source: 'gfs-0p25' | 'ecmwf-ifs-0p25', runMs: number, steps: string) =>
  syncRun({
    source,
    baseUrl: t.server.baseUrl,
    syncDir: join(t.data, 'sync'),
    runMs,
    steps,
    keepDays: 400,
    now: () => runMs + 8 * HOUR,
    http: { retries: 0, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 1,
    retryDelayMs: 5,
  });

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 13).replace(/[-T]/g, '');
/** The store's types at a point over the run's first 6 hours, from the end of its first (the rates' hours). */
async function series(source: string, runMs: number, lon: number, lat: number): Promise<number[]> {
  const store = await ZarrSource.open(join(t.data, 'sync', source, 'runs', `${stamp(runMs)}.zarr`));
  try {
    const p = await store.pointSeries('precipitation_type', lon, lat, { startMs: runMs, endMs: runMs + 6 * HOUR });
    expect(p.startMs).toBe(runMs + HOUR);
    // An instant at its stamp, though on the axis of means: a code is no statistic over the hour.
    expect(p.timeCell ?? [0, 0]).toEqual([0, 0]);
    return Array.from(p.values);
  } finally {
    await store.close();
  }
}

describe('a synced run’s store', () => {
  it('holds GFS’s type at each hour with a rate: none at step 0, which writes no categories', async () => {
    expect(await sync('gfs-0p25', GFS_RUN, '0-2')).toMatchObject({ state: 'published' });
    for (const [k, { code }] of GFS_CATEGORY_COLUMNS.entries()) {
      const lon = GFS_GRID.lon1 + k * GFS_GRID.dLon;
      expect(columnOf(GFS_GRID, lon)).toBe(k);
      expect(await series('gfs-0p25', GFS_RUN, lon, 45.5)).toEqual([code, code]);
    }
  });

  it('gives the hours between ECMWF’s 3-hourly steps the code of the step that ends them, as their rate is over its interval: never a blend', async () => {
    expect(await sync('ecmwf-ifs-0p25', ECMWF_RUN, '0-6')).toMatchObject({ state: 'published' });
    expect(ECMWF_PTYPE_COLUMNS.length).toBe(ECMWF_GRID.ni);
    expect(await series('ecmwf-ifs-0p25', ECMWF_RUN, -4.1, 45.6)).toEqual([rain, rain, rain, snow, snow, snow]);
  });

  it('refuses a step whose ptype is no type ptype writes, as bad upstream data: the run is not published', async () => {
    const thrown = await sync('ecmwf-ifs-0p25', BAD_RUN, '0-3').catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(StepDataError);
    expect((thrown as Error).message).toMatch(/step 3 h: ptype is 2 at grid point \d+, no precipitation type ECMWF's ptype writes/);
    const registry = await readSourceRegistry(join(t.data, 'sync', 'ecmwf-ifs-0p25'), 'ecmwf-ifs-0p25');
    expect(registry.runs.map((r) => Date.parse(r.run))).toEqual([ECMWF_RUN]);
  });

  it('makes the catalog’s precipitation style the product’s whole only where every store its frames are read from holds the type', async () => {
    // The GFS analysis made as before the type was synced: its metadata names no precipitation_type.
    const dir = join(t.data, 'sync', 'gfs-0p25');
    const zmetadata = join(dir, (await readSourceRegistry(dir, 'gfs-0p25')).analysis!, '.zmetadata');
    const consolidated = JSON.parse(readFileSync(zmetadata, 'utf8')) as { metadata: Record<string, unknown> };
    const named = Object.keys(consolidated.metadata).filter((k) => k.startsWith('precipitation_type/'));
    expect(named).toHaveLength(2);
    for (const k of named) delete consolidated.metadata[k];
    writeFileSync(zmetadata, JSON.stringify(consolidated));
    const synced = syncedProductsOf(join(t.data, 'sync'), createCatalog().products());
    await synced.refresh(ECMWF_RUN + 8 * HOUR);
    const product = (name: string) => synced.products().find((p) => p.def.name === name)!.def;
    const ecmwf = product('ecmwf-ifs-0p25.precipitation-rate');
    expect(ecmwf.styleableLayers.map((l) => l.name)).toEqual(['precipitation_rate', 'precipitation_type']);
    expect(ecmwf.defaultStyles[0]!.colorizers.map((c) => c.mask?.attributes)).toEqual([['rain'], ['snow'], ['freezing_rain'], ['sleet']]);
    const gfs = product('gfs-0p25.precipitation-rate');
    expect(gfs.styleableLayers.map((l) => l.name)).toEqual(['precipitation_rate']);
    expect(gfs.defaultStyles[0]!.description).toMatch(/the gfs-0p25 stores hold no precipitation_type$/);
  });

  it('leaves the type out of a run whose staged steps lack it after the first (staged before the type was synced)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sync-ptype-staged-'));
    try {
      const grid = { ni: 8, nj: 8, lat0: 46, lon0: 10, dLat: 0.25, dLon: 0.25 } as LatLonGrid;
      const at = (h: number, variable: 'air_temperature' | 'precipitation_rate' | 'precipitation_type', value: number) => ({
        variable,
        startMs: GFS_RUN + (variable === 'precipitation_rate' ? h - 1 : h) * HOUR,
        endMs: GFS_RUN + h * HOUR,
        values: new Float32Array(64).fill(value),
      });
      const step = (h: number, typed: boolean): ConvertedStep => ({
        step: h,
        validMs: GFS_RUN + h * HOUR,
        grid,
        fields: [
          at(h, 'air_temperature', 5),
          ...(h > 0 ? [at(h, 'precipitation_rate', 1)] : []),
          ...(typed ? [at(h, 'precipitation_type', snow)] : []),
        ],
      });
      for (const [h, typed] of [
        [0, false],
        [1, true],
        [2, false],
      ] as const)
        await stageStep(join(dir, 'staging'), step(h, typed), null);
      const partial = await writeRunStore(join(dir, 'run.zarr'), await stagedSteps(join(dir, 'staging')), {
        runMs: GFS_RUN,
        attributes: {},
      });
      expect(partial.variables).toContain('precipitation_rate');
      expect(partial.variables).not.toContain('precipitation_type');
      await stageStep(join(dir, 'staging'), step(2, true), null);
      const summary = await writeRunStore(join(dir, 'run.zarr'), await stagedSteps(join(dir, 'staging')), {
        runMs: GFS_RUN,
        attributes: {},
      });
      expect(summary.variables).toContain('precipitation_type');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
