/**
 * Upstream writes a step's GRIB2 file in place, its inventory beside it, so a poller may find the
 * inventory and a file that ends before the bytes the inventory lists. That is upstream's "not
 * yet", like a file not there at all: the pass is pending with the steps it has, not failed, while
 * the run is among the newest a poll waits for. Past that, and for a file that is long enough and
 * still not what its inventory says, the pass fails as before
 * (docs/decisions/0455-a-file-shorter-than-its-inventory-is-not-yet-published.md).
 */
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageRangeError, syncRun } from '../src/index.js';
import { pollOptions, useArchive } from './archive-server.js';
import { gfsPath, writeGfsStep } from './runs.js';

const HOUR = 3_600_000;
const run = (k: number) => Date.UTC(2026, 11, 3, 0) + 6 * HOUR * k;
const t = useArchive('file-being-written', (root) => {
  for (let k = 0; k < 6; k++) for (const s of [0, 1, 2, 3]) writeGfsStep(root, run(k), s);
});

const file = (runMs: number) => join(t.archive, gfsPath(runMs, 2));
/** The byte offsets of step 2's messages, as its inventory lists them. */
const offsets = (runMs: number) =>
  readFileSync(`${file(runMs)}.idx`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => Number(l.split(':')[1]));
const poll = (runMs: number, nowMs: number, lines: string[] = []) =>
  syncRun(
    pollOptions(t, {
      runMs,
      steps: '0-3',
      syncDir: join(t.data, String(runMs)),
      now: () => nowMs,
      progress: (l) => lines.push(l),
    }),
  );

describe('a file shorter than its inventory says, while its run is recent', () => {
  it.each([
    // the third message (DPT) starts where the second (HGT, not needed) does: a range past the end (HTTP 416)
    ['cut at a message boundary, before the next message fetched', 0, (runMs: number) => offsets(runMs)[1]!],
    ['cut inside a message the inventory gives a length', 1, (runMs: number) => offsets(runMs).at(-1)! - 10],
    ['cut inside its last message, which the inventory gives no end', 2, (runMs: number) => readFileSync(file(runMs)).length - 200],
  ])('%s: the pass is pending, and the next one takes the step once it is whole', async (_how, k, cut) => {
    const runMs = run(k);
    const whole = readFileSync(file(runMs));
    truncateSync(file(runMs), cut(runMs));
    const lines: string[] = [];
    expect(await poll(runMs, runMs + 4 * HOUR, lines)).toEqual({ state: 'pending', runMs, staged: 2, of: 4 });
    expect(lines.at(-1)).toMatch(/f002 bytes \d+-\d*: .*; upstream is still writing the file, waiting for it/);
    writeFileSync(file(runMs), whole);
    expect(await poll(runMs, runMs + 4 * HOUR + 60_000)).toMatchObject({ state: 'published', steps: 4 });
  });
});

it('a file still short once its run is older than the runs a poll waits for fails the pass', async () => {
  const runMs = run(3);
  truncateSync(file(runMs), offsets(runMs).at(-1)! - 10);
  const failure = await poll(runMs, runMs + 48 * HOUR).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(MessageRangeError);
  expect((failure as Error).message).toMatch(/f002 bytes \d+-\d+: temperature_max: truncated: \d+ of \d+ bytes received/);
});

describe('a file as long as its inventory says and still not what it says fails the pass while its run is recent', () => {
  it('an inventory whose offsets do not match the file', async () => {
    const runMs = run(4);
    const idx = `${file(runMs)}.idx`;
    const lines = readFileSync(idx, 'utf8').split('\n');
    lines[1] = lines[1]!.replace(/^(\d+):(\d+):/, (_m, n: string, o: string) => `${n}:${Number(o) + 8}:`);
    writeFileSync(idx, lines.join('\n'));
    const failure = await poll(runMs, runMs + 4 * HOUR).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MessageRangeError);
    // the message named by the quantity the inventory lists it for
    expect((failure as Error).message).toMatch(
      /bytes \d+-\d+: (temperature|dewpoint|wind_u|wind_v|shortwave|pressure|precipitation|temperature_max|temperature_min): section 0 gives the message \d+ bytes, the inventory \d+/,
    );
  });

  it('a last message that does not end with "7777"', async () => {
    const runMs = run(5);
    const bytes = readFileSync(file(runMs));
    bytes.write('6666', bytes.length - 4, 'latin1');
    writeFileSync(file(runMs), bytes);
    const failure = await poll(runMs, runMs + 4 * HOUR).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MessageRangeError);
    expect((failure as Error).message).toMatch(
      /bytes \d+-\d*: (temperature|dewpoint|wind_u|wind_v|shortwave|pressure|precipitation|temperature_max|temperature_min): does not end with "7777"/,
    );
  });
});
