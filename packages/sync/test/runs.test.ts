/**
 * A GFS and an ECMWF run served from a local archive in each source's layout:
 * the steps are read through their inventories, only the wanted messages fetched, and the
 * converted values must equal the analytic fields they were written from (test/runs.ts), within
 * the packing's precision.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConvertedField, DecodedStep } from '../src/index.js';
import { MessageRangeError, RunConverter, SOURCES, SourceHttp, StepDataError, readRun, readStep } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import {
  ECMWF_GRID,
  ECMWF_PTYPE_COLUMNS,
  GFS_CATEGORY_COLUMNS,
  GFS_GRID,
  analytic,
  columnOf,
  ecmwfPath,
  gfsIntervalStart,
  gfsPath,
  integral,
  writeEcmwfStep,
  writeGfsStep,
} from './runs.js';

const GFS_RUN = Date.UTC(2026, 11, 3, 6);
const ECMWF_RUN = Date.UTC(2026, 11, 3, 0);
const GFS_STEPS = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const ECMWF_STEPS = [0, 3, 6, 9, 12];
/** Around the change from 3-hourly to 6-hourly steps at 144 h. */
const ECMWF_LATE_STEPS = [141, 144, 150, 156];
const U2_OVER_U10 = 4.87 / Math.log(67.8 * 10 - 5.42);

let root: string;
let server: ArchiveServer;
const fast = { retries: 2, backoffMs: 5, timeoutMs: 2000 };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sync-runs-'));
  for (const s of GFS_STEPS) writeGfsStep(root, GFS_RUN, s);
  for (const s of [...ECMWF_STEPS, ...ECMWF_LATE_STEPS]) writeEcmwfStep(root, ECMWF_RUN, s);
  server = await serveArchive(root);
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => void (server.log.length = 0));

/** Every grid point of a converted field against `expected(lat, lon)`. */
function expectField(
  f: ConvertedField | undefined,
  grid: typeof GFS_GRID,
  tolerance: number,
  expected: (lat: number, lon: number) => number,
) {
  expect(f).toBeDefined();
  expect(f!.values).toHaveLength(grid.ni * grid.nj);
  for (let row = 0; row < grid.nj; row++)
    for (let col = 0; col < grid.ni; col++) {
      const lat = grid.lat1 - row * grid.dLat;
      const lon = grid.lon1 + col * grid.dLon;
      expect(Math.abs(f!.values[row * grid.ni + col]! - expected(lat, lon))).toBeLessThanOrEqual(tolerance);
    }
}

const byVariable = (fields: ConvertedField[]) => new Map(fields.map((f) => [f.variable, f]));

/** The instantaneous variables of a step: temperature and dewpoint in °C, pressure in kPa, 2 m wind from 10 m (FAO-56 eq. 47). */
function expectInstants(out: Map<string, ConvertedField>, grid: typeof GFS_GRID, step: number) {
  expectField(out.get('air_temperature'), grid, 0.006, (la, lo) => analytic.temperatureK(la, lo, step) - 273.15);
  expectField(out.get('dew_point_temperature'), grid, 0.006, (la, lo) => analytic.dewpointK(la, lo, step) - 273.15);
  expectField(out.get('surface_air_pressure'), grid, 0.0006, (la, lo) => analytic.pressurePa(la, lo, step) / 1000);
  expectField(out.get('wind_speed'), grid, 0.001, (la, lo) => Math.hypot(analytic.u10(la, lo, step), analytic.v10(la, lo)) * U2_OVER_U10);
}
const hours = (ms: number, run: number) => (ms - run) / 3_600_000;

describe('a GFS run', () => {
  it('fetches only the wanted messages of each step, in one request per run of adjacent ones', async () => {
    const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
    await readStep(http, SOURCES['gfs-0p25'], server.baseUrl, GFS_RUN, 7);
    const file = `/${gfsPath(GFS_RUN, 7)}`;
    // File order: TMP, HGT, DPT, UGRD, VGRD, PRES, RH, DSWRF, APCP, CSNOW, CICEP, CFRZR, CRAIN, the
    // four categories' averages, TMAX, TMIN; HGT, RH and the averages unwanted.
    expect(server.log.map((r) => r.path)).toEqual([`${file}.idx`, file, file, file, file]);
    const size = readFileSync(join(root, file)).length;
    const idx = readFileSync(join(root, `${file}.idx`), 'utf8');
    const offsets = idx
      .trim()
      .split('\n')
      .map((line) => Number(line.split(':')[1]));
    const ranges = server.log.slice(1).map((r) => r.range);
    expect(ranges).toEqual([
      `bytes=0-${offsets[1]! - 1}`,
      `bytes=${offsets[2]}-${offsets[6]! - 1}`,
      `bytes=${offsets[7]}-${offsets[13]! - 1}`,
      `bytes=${offsets[17]}-`,
    ]);
    const fetched = server.log.slice(1).reduce((s, r) => s + r.bytes, 0);
    expect(fetched).toBe(size - (offsets[2]! - offsets[1]!) - (offsets[7]! - offsets[6]!) - (offsets[17]! - offsets[13]!));
    expect(http.stats.bytes).toBe(fetched + idx.length);
  });

  it("gives the analytic fields in Fieldcast's units at every step, rates over the hour before it", async () => {
    const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
    const converter = new RunConverter();
    for (const step of GFS_STEPS) {
      const decoded: DecodedStep = await readStep(http, SOURCES['gfs-0p25'], server.baseUrl, GFS_RUN, step);
      expect(decoded.grid).toMatchObject({ ni: 8, nj: 5, lat0: 46, lon0: 10, dLat: 0.25, dLon: 0.25 });
      const out = byVariable(converter.convert(decoded));
      const t = out.get('air_temperature')!;
      expect([hours(t.startMs, GFS_RUN), hours(t.endMs, GFS_RUN)]).toEqual([step, step]);
      expectInstants(out, GFS_GRID, step);
      if (step === 0) {
        expect([...out.keys()].sort()).toEqual(['air_temperature', 'dew_point_temperature', 'surface_air_pressure', 'wind_speed']);
        continue;
      }
      // The categories at the step (not their averages over the interval) as one code (0502).
      const type = out.get('precipitation_type')!;
      expect([hours(type.startMs, GFS_RUN), hours(type.endMs, GFS_RUN)]).toEqual([step, step]);
      expectField(type, GFS_GRID, 0, (_la, lo) => GFS_CATEGORY_COLUMNS[columnOf(GFS_GRID, lo)]!.code);
      // Mean of a + b t over (step - 1, step]: a + b (step - 0.5).
      const sw = out.get('surface_downwelling_shortwave_flux_in_air')!;
      expect([hours(sw.startMs, GFS_RUN), hours(sw.endMs, GFS_RUN)]).toEqual([step - 1, step]);
      expectField(sw, GFS_GRID, 0.01, (la, lo) => analytic.shortwave(la, lo).a + analytic.shortwave(la, lo).b * (step - 0.5));
      expectField(
        out.get('precipitation_rate'),
        GFS_GRID,
        0.001,
        (la) => analytic.precipitation(la).c + analytic.precipitation(la).d * (step - 0.5),
      );
      const max = out.get('air_temperature_daily_max')!;
      expect([hours(max.startMs, GFS_RUN), hours(max.endMs, GFS_RUN)]).toEqual([gfsIntervalStart(step), step]);
      expectField(max, GFS_GRID, 0.006, (la, lo) => analytic.temperatureK(la, lo, step) - 273.15);
      expectField(
        out.get('air_temperature_daily_min'),
        GFS_GRID,
        0.006,
        (la, lo) => analytic.temperatureK(la, lo, gfsIntervalStart(step)) - 273.15,
      );
    }
  });
});

describe('an ECMWF run', () => {
  it('gives the analytic fields, accumulations from the start differenced over the 3 hours before each step', async () => {
    const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
    const converter = new RunConverter();
    for (const step of ECMWF_STEPS) {
      const decoded = await readStep(http, SOURCES['ecmwf-ifs-0p25'], server.baseUrl, ECMWF_RUN, step);
      expect(decoded.grid).toMatchObject({ lat0: 46, lon0: -5 });
      const out = byVariable(converter.convert(decoded));
      expectInstants(out, ECMWF_GRID, step);
      // ptype (WMO code table 4.201) in the catalog's codes (0502): none anywhere at step 0.
      const type = out.get('precipitation_type')!;
      expect([hours(type.startMs, ECMWF_RUN), hours(type.endMs, ECMWF_RUN)]).toEqual([step, step]);
      expectField(type, ECMWF_GRID, 0, (_la, lo) => (step === 0 ? 0 : ECMWF_PTYPE_COLUMNS[columnOf(ECMWF_GRID, lo)]!.code));
      if (step === 0) {
        expect(out.has('precipitation_rate') || out.has('surface_downwelling_shortwave_flux_in_air')).toBe(false);
        continue;
      }
      const sw = out.get('surface_downwelling_shortwave_flux_in_air')!;
      expect([hours(sw.startMs, ECMWF_RUN), hours(sw.endMs, ECMWF_RUN)]).toEqual([step - 3, step]);
      expectField(sw, ECMWF_GRID, 0.001, (la, lo) => integral(analytic.shortwave(la, lo), step - 3, step) / 3);
      expectField(
        out.get('precipitation_rate'),
        ECMWF_GRID,
        0.001,
        (la) => analytic.precipitation(la).c + analytic.precipitation(la).d * (step - 1.5),
      );
      const max = out.get('air_temperature_daily_max')!;
      expect([hours(max.startMs, ECMWF_RUN), hours(max.endMs, ECMWF_RUN)]).toEqual([step - 3, step]);
      expectField(max, ECMWF_GRID, 0.006, (la, lo) => analytic.temperatureK(la, lo, step) - 273.15);
    }
    // Index, and the wanted messages in two runs (msl first and tcwv between are not wanted).
    expect(server.log.filter((r) => r.path.endsWith('-12h-oper-fc.grib2'))).toHaveLength(2);
  });

  it('differences its accumulations across the change to 6-hourly steps at 144 h, from the step before the first asked', async () => {
    const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
    const steps = [];
    for await (const step of readRun(http, SOURCES['ecmwf-ifs-0p25'], server.baseUrl, ECMWF_RUN, [150, 156])) steps.push(step);
    expect(steps.map((s) => s.step)).toEqual([150, 156]);
    // 144 h is read for its accumulations, and not given.
    expect(server.log.some((r) => r.path.endsWith('-144h-oper-fc.index'))).toBe(true);
    expect(server.log.some((r) => r.path.endsWith('-141h-oper-fc.index'))).toBe(false);
    for (const { step, fields } of steps) {
      const out = byVariable(fields);
      expectInstants(out, ECMWF_GRID, step);
      const sw = out.get('surface_downwelling_shortwave_flux_in_air')!;
      expect([hours(sw.startMs, ECMWF_RUN), hours(sw.endMs, ECMWF_RUN)]).toEqual([step - 6, step]);
      // ssrd accumulated over 150 h is packed to whole J m-2: its 6-hour difference is good to about 0.001 W m-2.
      expectField(sw, ECMWF_GRID, 0.01, (la, lo) => integral(analytic.shortwave(la, lo), step - 6, step) / 6);
      const tp = out.get('precipitation_rate')!;
      expect([hours(tp.startMs, ECMWF_RUN), hours(tp.endMs, ECMWF_RUN)]).toEqual([step - 6, step]);
      expectField(tp, ECMWF_GRID, 0.001, (la) => analytic.precipitation(la).c + analytic.precipitation(la).d * (step - 3));
    }
  });
});

describe('an upstream that lies', () => {
  let bad: string;
  beforeEach(() => {
    bad = mkdtempSync(join(tmpdir(), 'sync-bad-'));
  });
  afterEach(() => rmSync(bad, { recursive: true, force: true }));

  async function readFrom(dir: string, step: number) {
    const s = await serveArchive(dir);
    try {
      return await readStep(new SourceHttp({ baseUrl: s.baseUrl, ...fast }), SOURCES['gfs-0p25'], s.baseUrl, GFS_RUN, step);
    } finally {
      await s.close();
    }
  }

  it('refuses a truncated file, naming the URL and the range', async () => {
    const path = writeGfsStep(bad, GFS_RUN, 3);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 100));
    const error = await readFrom(bad, 3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageRangeError);
    expect((error as Error).message).toMatch(new RegExp(`/${gfsPath(GFS_RUN, 3).replace(/\./g, '\\.')} bytes \\d+-: `));
  });

  it("refuses an inventory naming one parameter at another's message, though the range is whole", async () => {
    const path = writeGfsStep(bad, GFS_RUN, 3);
    const lines = readFileSync(`${path}.idx`, 'utf8').trim().split('\n');
    // TMP's and DPT's lines trade their offsets: each range is a whole message, of the other parameter.
    const [tmp, dpt] = [lines[0]!.split(':'), lines[2]!.split(':')];
    [tmp[1], dpt[1]] = [dpt[1]!, tmp[1]!];
    lines[0] = tmp.join(':');
    lines[2] = dpt.join(':');
    writeFileSync(`${path}.idx`, lines.sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1])).join('\n'));
    const error = await readFrom(bad, 3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageRangeError);
    expect((error as Error).message).toMatch(/temperature: the message holds parameter 0\/0\/6, not temperature \(0\/0\/0\)/);
  });

  it("refuses an inventory naming a parameter's level and pointing at the parameter on another level", async () => {
    const path = writeGfsStep(bad, GFS_RUN, 3);
    const bytes = readFileSync(path);
    // The first message is TMP at 2 m above ground. Its section 4 (after section 0's 16 octets and
    // sections 1 and 3, each opening with its length) made TMP on the 850 hPa surface: template 4.0
    // octets 23-28 are the type (code table 4.5), scale factor and scaled value of the first fixed surface.
    let at = 16;
    while (bytes[at + 4] !== 4) at += bytes.readUInt32BE(at);
    bytes[at + 22] = 100;
    bytes[at + 23] = 0;
    bytes.writeUInt32BE(85000, at + 24);
    writeFileSync(path, bytes);
    const error = await readFrom(bad, 3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageRangeError);
    expect((error as Error).message).toMatch(
      /temperature: the message is on fixed surface 100 at 85000 \(code table 4\.5\), not temperature's 103 at 2$/,
    );
  });

  it("refuses the file of another step behind a step's name", async () => {
    const other = writeGfsStep(bad, GFS_RUN, 4);
    const path = join(bad, gfsPath(GFS_RUN, 3));
    copyFileSync(other, path);
    copyFileSync(`${other}.idx`, `${path}.idx`);
    await expect(readFrom(bad, 3)).rejects.toThrow(/is valid at 2026-12-03T10:00:00.000Z, not step 3 h/);
  });

  it('names the parameters an inventory lacks', async () => {
    const path = writeGfsStep(bad, GFS_RUN, 3);
    const lines = readFileSync(`${path}.idx`, 'utf8').trim().split('\n');
    writeFileSync(`${path}.idx`, lines.filter((l) => !/:(DPT|PRES|APCP|TMAX):/.test(l)).join('\n'));
    const error = await readFrom(bad, 3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepDataError);
    // TMAX is written only where the source has it; the others every step after the first.
    expect((error as Error).message).toMatch(/lists no dewpoint, pressure, precipitation$/);
  });

  it('refuses a step whose messages are on different grids', async () => {
    writeGfsStep(bad, GFS_RUN, 3);
    const ecmwf = writeEcmwfStep(bad, GFS_RUN, 3);
    const gfs = join(bad, gfsPath(GFS_RUN, 3));
    // DPT's message replaced by ECMWF's 2d of the same run and step: as long, but on ECMWF's grid.
    const idx = readFileSync(`${gfs}.idx`, 'utf8').trim().split('\n');
    const index = readFileSync(ecmwf.replace(/\.grib2$/, '.index'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { param: string; _offset: number; _length: number });
    const t2 = index.find((e) => e.param === '2d')!;
    const gfsBytes = readFileSync(gfs);
    const [dptAt, next] = [Number(idx[2]!.split(':')[1]), Number(idx[3]!.split(':')[1])];
    expect(next - dptAt).toBe(t2._length);
    readFileSync(ecmwf).copy(gfsBytes, dptAt, t2._offset, t2._offset + t2._length);
    writeFileSync(gfs, gfsBytes);
    await expect(readFrom(bad, 3)).rejects.toThrow(/dewpoint is on a 8 x 5 grid from 46, -5, unlike the step's other fields/);
  });
});

it('writes its fixtures where the layouts say', () => {
  expect(ecmwfPath(ECMWF_RUN, 9)).toBe(SOURCES['ecmwf-ifs-0p25'].filePath(ECMWF_RUN, 9));
  expect(gfsPath(GFS_RUN, 9)).toBe(SOURCES['gfs-0p25'].filePath(GFS_RUN, 9));
});
