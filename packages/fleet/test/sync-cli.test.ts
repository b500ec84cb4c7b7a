import { existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArchiveServer, serveArchive } from '../../sync/test/archive-server.js';
import { ecmwfPath, gfsPath, writeEcmwfStep, writeGfsStep } from '../../sync/test/runs.js';
import { useCliDataDir } from './cli-process.js';

/*
 * `fieldcast sync <source> --once` as a user runs it: exit 0 with its progress printed, or exit 2
 * naming what failed (docs/decisions/0250-synced-runs-staged-then-published.md).
 */
const cli = useCliDataDir('fieldcast-sync-cli-');
const GOOD = Date.UTC(2026, 11, 2, 12);
const BAD = Date.UTC(2026, 11, 2, 18);
let archive: string;
let server: ArchiveServer;

beforeAll(async () => {
  archive = mkdtempSync(join(tmpdir(), 'fieldcast-sync-cli-archive-'));
  for (const run of [GOOD, BAD]) for (let s = 0; s <= 2; s++) writeGfsStep(archive, run, s);
  unlinkSync(join(archive, `${gfsPath(BAD, 1)}.idx`));
  server = await serveArchive(archive);
  process.env.FIELDCAST_SOURCE_GFS_0P25_URL = server.baseUrl;
  process.env.FIELDCAST_SYNC_RETRY_MS = '10';
});
afterAll(async () => {
  delete process.env.FIELDCAST_SOURCE_GFS_0P25_URL;
  delete process.env.FIELDCAST_SYNC_RETRY_MS;
  await server.close();
  rmSync(archive, { recursive: true, force: true });
});

describe('fieldcast sync --once', () => {
  it('syncs the named run and exits 0', async () => {
    const r = await cli.fieldcast('sync', 'gfs-0p25', '--once', '--run', '2026-12-02T12Z', '--steps', '0-2');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/gfs-0p25 2026-12-02T12Z step 2 h \(3\/3\)/);
    expect(r.stdout).toMatch(/3 steps, [\d.]+ MB fetched in [\d.]+ s/);
    expect(existsSync(join(cli.dir(), 'sync', 'gfs-0p25', 'runs', '2026120212.zarr', '.zmetadata'))).toBe(true);
  }, 60_000);

  it('exits 2 naming the step that failed, after its retries', async () => {
    const r = await cli.fieldcast('sync', 'gfs-0p25', '--once', '--run', '2026-12-02T18Z', '--steps', '0-2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fieldcast: gfs-0p25 2026-12-02T18Z: .*gfs\.t18z\.pgrb2\.0p25\.f001\.idx: HTTP 404/);
    expect(r.stdout).toMatch(/retrying \(2 of 2\)/);
  }, 60_000);

  it('refuses an unknown source or a run the source does not make', async () => {
    expect(await cli.fieldcast('sync', 'gfs-1p00', '--once')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown source "gfs-1p00"/),
    });
    expect(await cli.fieldcast('sync', 'gfs-0p25', '--once', '--run', '2026-12-02T03Z')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/gfs-0p25 has no run at 2026-12-02T03:00/),
    });
  }, 60_000);

  it('says, when no recent run is whole upstream, that none is published through its last step, naming the source once', async () => {
    // The newest 00 or 12 UTC ECMWF run, published up to 3 h of its 240.
    const runMs = Math.floor(Date.now() / (12 * 3_600_000)) * 12 * 3_600_000;
    const ecmwf = mkdtempSync(join(tmpdir(), 'fieldcast-sync-cli-ecmwf-'));
    for (const s of [0, 3]) writeEcmwfStep(ecmwf, runMs, s);
    const upstream = await serveArchive(ecmwf);
    process.env.FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL = upstream.baseUrl;
    try {
      const r = await cli.fieldcast('sync', 'ecmwf-ifs-0p25', '--once');
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `fieldcast: ecmwf-ifs-0p25: no run of the last two days is published through its last step at ${upstream.baseUrl}\n`,
      );
      expect(upstream.log.some((q) => q.path === `/${ecmwfPath(runMs, 240).replace(/\.grib2$/, '.index')}`)).toBe(true);
    } finally {
      delete process.env.FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL;
      await upstream.close();
      rmSync(ecmwf, { recursive: true, force: true });
    }
  }, 60_000);
});
