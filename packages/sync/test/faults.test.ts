/**
 * Bad upstream data (a truncated file, an inventory that does not match its file, a step on
 * another grid, a missing step, HTTP errors): the step is retried, then the sync fails naming it;
 * nothing of the bad run is published and the last good run stays served.
 */
import { existsSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceRegistry, syncedStorePaths } from '@fieldcast/weather';
import { MessageRangeError, StepDataError, UpstreamError, syncRun } from '../src/index.js';
import { useArchive } from './archive-server.js';
import { GFS_GRID, gfsPath, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const GOOD = Date.UTC(2026, 11, 1, 0);
const bad = (k: number) => GOOD + 6 * HOUR * (k + 1);

const t = useArchive('faults', (root) => {
  for (const run of [GOOD, ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(bad)]) for (let s = 0; s <= 3; s++) writeGfsStep(root, run, s);
});

const sync = (runMs: number, lines: string[] = []) =>
  syncRun({
    source: 'gfs-0p25',
    baseUrl: t.server.baseUrl,
    syncDir: join(t.data, 'sync'),
    runMs,
    steps: '0-3',
    http: { retries: 1, backoffMs: 5, timeoutMs: 2000 },
    stepRetries: 1,
    retryDelayMs: 5,
    progress: (l) => lines.push(l),
  });

/** The sync of `runMs` fails with `error`, after a retry, and leaves the good run served and nothing of its own. */
async function expectFailure(runMs: number, error: unknown, message: RegExp) {
  const lines: string[] = [];
  const thrown = await sync(runMs, lines).catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(error as never);
  expect((thrown as Error).message).toMatch(message);
  expect(lines.some((l) => /retrying \(1 of 1\)/.test(l))).toBe(true);
  const registry = await readSourceRegistry(join(t.data, 'sync', 'gfs-0p25'), 'gfs-0p25');
  expect(registry.runs.map((r) => Date.parse(r.run))).toEqual([GOOD]);
  expect((await syncedStorePaths(join(t.data, 'sync'), GOOD))[0]).toMatch(/2026120100\.zarr$/);
  const stamp = new Date(runMs).toISOString().slice(0, 13).replace(/[-T]/g, '');
  expect(existsSync(join(t.data, 'sync', 'gfs-0p25', 'runs', `${stamp}.zarr`))).toBe(false);
}

describe('bad upstream data', () => {
  beforeAll(async () => {
    expect(await sync(GOOD)).toMatchObject({ state: 'published' });
  });

  it('a truncated file', async () => {
    const file = join(t.archive, gfsPath(bad(0), 2));
    truncateSync(file, readFileSync(file).length - 200);
    await expectFailure(
      bad(0),
      MessageRangeError,
      /f002 bytes \d+-: temperature_min: section 0 gives the message \d+ bytes, the file ends \d+ bytes into it/,
    );
  });

  it('an inventory that does not match its file', async () => {
    const idx = join(t.archive, `${gfsPath(bad(1), 2)}.idx`);
    const lines = readFileSync(idx, 'utf8').split('\n');
    // The second message starts 8 bytes later than the inventory says: the first one's range runs into it.
    lines[1] = lines[1]!.replace(/^(\d+):(\d+):/, (_m, n: string, o: string) => `${n}:${Number(o) + 8}:`);
    writeFileSync(idx, lines.join('\n'));
    await expectFailure(
      bad(1),
      MessageRangeError,
      /f002 bytes 0-\d+: temperature: section 0 gives the message \d+ bytes, the inventory \d+/,
    );
  });

  it("a step on a grid other than the run's", async () => {
    writeGfsStep(t.archive, bad(2), 2, { ...GFS_GRID, ni: 9 });
    await expectFailure(bad(2), StepDataError, /step 2 h is on a 9 x 5 from 46, 10 .* grid, the run's steps on 8 x 5/);
  });

  it('a missing step', async () => {
    unlinkSync(join(t.archive, `${gfsPath(bad(3), 2)}.idx`));
    await expectFailure(bad(3), UpstreamError, /f002\.idx: HTTP 404/);
  });

  it('an inventory that is no inventory (an error page served as 200)', async () => {
    writeFileSync(join(t.archive, `${gfsPath(bad(5), 2)}.idx`), '<html><body>Service busy</body></html>\n');
    await expectFailure(bad(5), StepDataError, /f002\.idx: \.idx line 1 is not/);
  });

  /**
   * Where section `n` of a file's first message starts: section 0 is 16 octets, and each section
   * then opens with its length (4 octets) and number (1) (WMO Manual on Codes, GRIB2).
   */
  function sectionOf(bytes: Buffer, n: number): number {
    let at = 16;
    while (bytes[at + 4] !== n) at += bytes.readUInt32BE(at);
    return at;
  }

  it('a message whose grid does not hold its values (section 3 Ni changed)', async () => {
    const file = join(t.archive, gfsPath(bad(6), 2));
    const bytes = readFileSync(file);
    // template 3.0: Ni is octets 31-34 of section 3
    const at = sectionOf(bytes, 3) + 30;
    bytes.writeUInt32BE(bytes.readUInt32BE(at) + 1, at);
    writeFileSync(file, bytes);
    await expectFailure(bad(6), MessageRangeError, /f002 bytes 0-\d+: temperature: /);
  });

  it('a grid larger than any source publishes (a constant field of a few octets could declare billions of points)', async () => {
    const file = join(t.archive, gfsPath(bad(8), 2));
    const bytes = readFileSync(file);
    bytes.writeUInt32BE(3_000_000, sectionOf(bytes, 3) + 30);
    writeFileSync(file, bytes);
    await expectFailure(bad(8), MessageRangeError, /grid of 3000000 x 5 points is larger than any source publishes/);
  });

  it('a reference time that is no time (section 1 hour 36 of the day before would roll over onto the run)', async () => {
    const file = join(t.archive, gfsPath(bad(9), 2));
    const bytes = readFileSync(file);
    // section 1 octets 13-19: year, month, day, hour, minute, second of the reference time
    const at = sectionOf(bytes, 1) + 12;
    const before = new Date(bad(9) - 24 * HOUR);
    bytes.writeUInt16BE(before.getUTCFullYear(), at);
    bytes.set([before.getUTCMonth() + 1, before.getUTCDate(), before.getUTCHours() + 24, 0, 0], at + 2);
    writeFileSync(file, bytes);
    await expectFailure(
      bad(9),
      MessageRangeError,
      /f002 bytes 0-\d+: temperature: message at byte 0: section 1 octets 13-19 \(reference time\): 2026-12-02 36:00:00 is not a date and time \(hour 36\)/,
    );
  });

  it('values no weather reaches (a wrong reference value decodes without error)', async () => {
    const file = join(t.archive, gfsPath(bad(7), 2));
    const bytes = readFileSync(file);
    // templates 5.0-5.3: the reference value R is octets 12-15 of section 5, an IEEE float
    bytes.writeFloatBE(1e20, sectionOf(bytes, 5) + 11);
    writeFileSync(file, bytes);
    await expectFailure(bad(7), StepDataError, /step 2 h: air_temperature is [\d.e+]+ at grid point 0, outside -95 to 65/);
  });

  it('HTTP errors: retried, then reported', async () => {
    t.server.inject(`${gfsPath(bad(4), 1)}.idx`, { status: 500 }, 4);
    await expectFailure(bad(4), UpstreamError, /f001\.idx: HTTP 500 \(2 attempts\)/);
    // Fewer failures than attempts: the run syncs, resumed from the steps staged before.
    t.server.inject(`${gfsPath(bad(4), 1)}.idx`, { status: 503 }, 1);
    expect(await sync(bad(4))).toMatchObject({ state: 'published' });
  });
});
