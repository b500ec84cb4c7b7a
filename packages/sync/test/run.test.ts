/**
 * A run as `fieldcast sync` names it, and its steps read in order from a local archive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOURCES, SourceHttp, UpstreamError, parseRun, readRun, runSteps, runsBefore } from '../src/index.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';
import { analytic, gfsPath, writeGfsStep } from './runs.js';

const gfs = SOURCES['gfs-0p25'];
const ecmwf = SOURCES['ecmwf-ifs-0p25'];
const RUN = Date.UTC(2026, 11, 3, 12);

describe('naming a run', () => {
  it('reads --run YYYY-MM-DDTHHZ and refuses other forms, dates and hours', () => {
    expect(parseRun(gfs, '2026-12-03T12Z')).toBe(RUN);
    expect(() => parseRun(gfs, '2026-12-03T12')).toThrow(/not YYYY-MM-DDTHHZ/);
    expect(() => parseRun(gfs, '2026-12-03T03Z')).toThrow(/gfs-0p25 has no run at 2026-12-03T03:00/);
  });

  it('reads --run on the proleptic Gregorian calendar: a year 0000 to 0099 is itself, a field out of range is refused by name', () => {
    const year50 = new Date(0);
    year50.setUTCFullYear(50, 0, 1);
    expect(parseRun(gfs, '0050-01-01T00Z')).toBe(year50.getTime());
    expect(parseRun(gfs, '2024-02-29T18Z')).toBe(Date.UTC(2024, 1, 29, 18));
    // Date.UTC would roll each of these over into another run.
    expect(() => parseRun(gfs, '2026-13-01T00Z')).toThrow(/"2026-13-01T00Z" is not a calendar time: month 13 is out of range/);
    expect(() => parseRun(gfs, '2026-02-30T00Z')).toThrow(/"2026-02-30T00Z" is not a calendar time: day 30 is out of range/);
    expect(() => parseRun(gfs, '2025-02-29T00Z')).toThrow(/day 29 is out of range/);
    expect(() => parseRun(gfs, '2026-12-31T24Z')).toThrow(/"2026-12-31T24Z" is not a calendar time: hour 24 is out of range/);
    expect(() => parseRun(gfs, '2026-00-10T00Z')).toThrow(/month 0 is out of range/);
  });

  it("reads --steps A-B as the run's steps in that range", () => {
    expect(runSteps(gfs, RUN, '118-129')).toEqual([118, 119, 120, 123, 126, 129]);
    expect(runSteps(ecmwf, Date.UTC(2026, 11, 3, 18), '80-200')).toEqual([81, 84, 87, 90]);
    expect(runSteps(ecmwf, RUN)).toHaveLength(65);
    expect(() => runSteps(gfs, RUN, '7-3')).toThrow(/not A-B/);
    expect(() => runSteps(ecmwf, Date.UTC(2026, 11, 3, 6), '91-200')).toThrow(/writes no step from 91 to 200 h/);
  });

  it('lists the runs started by a time, newest first', () => {
    expect(runsBefore(ecmwf, Date.UTC(2026, 11, 3, 5, 59), 3)).toEqual([
      Date.UTC(2026, 11, 3, 0),
      Date.UTC(2026, 11, 2, 18),
      Date.UTC(2026, 11, 2, 12),
    ]);
    expect(runsBefore(gfs, RUN, 1)).toEqual([RUN]);
  });
});

describe('reading a run', () => {
  let root: string;
  let server: ArchiveServer;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sync-run-'));
    for (const s of [0, 1, 2, 3, 4]) writeGfsStep(root, RUN, s);
    server = await serveArchive(root);
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads the step before the first asked for, so that its rates are over the hour before it', async () => {
    const http = new SourceHttp({ baseUrl: server.baseUrl, retries: 0 });
    const out = [];
    for await (const s of readRun(http, gfs, server.baseUrl, RUN, runSteps(gfs, RUN, '3-4'))) out.push(s);
    expect(out.map((s) => s.step)).toEqual([3, 4]);
    expect(server.log.filter((r) => r.path.endsWith('.idx')).map((r) => r.path)).toEqual([2, 3, 4].map((s) => `/${gfsPath(RUN, s)}.idx`));
    const rate = out[0]!.fields.find((f) => f.variable === 'precipitation_rate')!;
    expect([rate.startMs, rate.endMs]).toEqual([RUN + 2 * 3.6e6, RUN + 3 * 3.6e6]);
    const { c, d } = analytic.precipitation(46);
    expect(rate.values[0]).toBeCloseTo(c + d * 2.5, 3);
  });

  it('ends with the error of a step not published, naming its URL', async () => {
    const http = new SourceHttp({ baseUrl: server.baseUrl, retries: 0 });
    const read = async () => {
      for await (const _ of readRun(http, gfs, server.baseUrl, RUN, runSteps(gfs, RUN, '4-5')));
    };
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 404, url: `${server.baseUrl}/${gfsPath(RUN, 5)}.idx` });
  });
});
