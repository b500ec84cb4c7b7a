/**
 * The console's first weather on an embedded fleet (issue 31; targets in bench/README.md). Run:
 *   npx -y pnpm@10 exec tsx bench/world-view.bench.ts
 * Starts `fieldcast start` as a user does (its own process, a fresh data dir, the embedded
 * defaults), reads the console's frame as the console does (the newest of the past of
 * OPENING_VIEW.product, from the tiles area's frames.json) and asks for its tiles as a browser
 * does, six at a time, with the demo account: the console's opening view (zoom OPENING_VIEW.zoom,
 * as a full HD screen shows it), then the world view (the 21 tiles of zooms 0 to 2). Each tile's
 * time from its request to its last byte, against deflate (node:zlib, level 6) of a tile's RGBA
 * pixels measured here (the tile floor). Three times:
 * - opened as the fleet says it is running (reported: the tiles area is still warming up and
 *   drawing the opening view ahead, docs/decisions/0356-opening-view-drawn-ahead.md);
 * - opened BENCH_OPEN_AFTER_SECONDS (20) after it says so, in another fresh fleet: target, every
 *   tile within 60 x the floor and no 429;
 * - in that fleet, the world view of the frame an hour before, never drawn (reported).
 * Then the fleet's resident memory (VmRSS, VmHWM). BENCH_REPO runs another checkout's fleet (its
 * own `node_modules`), for a figure of the code before; the climate lattice file is written first
 * if this machine has none (once per machine, docs/decisions/0089-climate-lattice-file.md).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { OPENING_VIEW } from '../packages/console/src/opening-view.js';
import { climateLatticeFile } from '../packages/weather/src/index.js';
import { openingTiles } from '../services/tiles/src/domain/opening-view.js';
import { decodePng } from '../services/tiles/test/png-decode.js';

const REPO = resolve(process.env.BENCH_REPO ?? process.cwd());
const OPEN_AFTER_S = Number(process.env.BENCH_OPEN_AFTER_SECONDS ?? 20);
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 18_600);
/** Connections a browser opens to one host (HTTP/1.1). */
const BROWSER_CONNECTIONS = 6;
const TARGET = 60;

interface Fleet {
  child: ChildProcess;
  tiles: string;
  auth: string;
  dataDir: string;
}

/** `fieldcast start` of REPO on a fresh data dir, once its banner has named the tiles area and the demo account. */
async function startFleet(portBase: number): Promise<Fleet> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-world-view-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'packages/fleet/src/cli.ts'), 'start'], {
    cwd: REPO,
    env: {
      ...process.env,
      FIELDCAST_DATA_DIR: dataDir,
      PORT_BASE: String(portBase),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const banner = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/applicationKey\s+\S+\n/.test(out)) done(out);
    });
    child.once('exit', (code) => fail(new Error(`fieldcast start ended (${code}):\n${out}`)));
  });
  const field = (name: string) => new RegExp(`^\\s*${name}\\s+(\\S+)$`, 'm').exec(banner)?.[1];
  const id = field('applicationId'),
    key = field('applicationKey'),
    tiles = field('tiles');
  if (!id || !key || !tiles) throw new Error(`no tiles area or demo account in the banner:\n${banner}`);
  return { child, tiles, auth: `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`, dataDir };
}

async function stopFleet(fleet: Fleet): Promise<void> {
  const ended = new Promise((done) => fleet.child.once('exit', done));
  fleet.child.kill('SIGTERM');
  await ended;
  rmSync(fleet.dataDir, { recursive: true, force: true });
}

/** The frame the console shows first: the newest of the past among the product's frames. */
async function consoleFrame(fleet: Fleet, hoursBefore = 0): Promise<string> {
  const res = await fetch(`${fleet.tiles}/v2/products/${OPENING_VIEW.product}/frames.json?limit=1000`, {
    headers: { Authorization: fleet.auth },
  });
  if (res.status !== 200) throw new Error(`frames.json: ${res.status} ${await res.text()}`);
  const frames = ((await res.json()) as { id: string; validTime: string }[])
    .filter((f) => Date.parse(f.validTime) <= Date.now())
    .sort((a, b) => b.validTime.localeCompare(a.validTime));
  return frames[hoursBefore]!.id;
}

interface Answer {
  tile: string;
  status: number;
  ms: number;
  png: Buffer;
}

/** The tiles as a browser asks for them: BROWSER_CONNECTIONS at a time, in order, each timed from its request to its last byte. */
async function browse(fleet: Fleet, frame: string, tiles: { z: number; x: number; y: number }[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const connection = async () => {
    while (next < tiles.length) {
      const { z, x, y } = tiles[next++]!;
      const t0 = performance.now();
      const res = await fetch(`${fleet.tiles}/v2/frames/${frame}/tile/${z}/${x}/${y}.png`, { headers: { Authorization: fleet.auth } });
      const png = Buffer.from(await res.arrayBuffer());
      answers.push({ tile: `${z}/${x}/${y}`, status: res.status, ms: performance.now() - t0, png });
    }
  };
  await Promise.all(Array.from({ length: BROWSER_CONNECTIONS }, connection));
  return answers;
}

/** The tile floor: median milliseconds of deflate (level 6) of a tile's RGBA pixels. */
function tileFloor(png: Buffer): number {
  const rgba = Buffer.from(decodePng(png).rgba);
  const times: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t0 = performance.now();
    deflateSync(rgba, { level: 6 });
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[12]!;
}

const drawnAhead = openingTiles();
const world = drawnAhead.filter((t) => t.z <= 2);
const opening = drawnAhead.filter((t) => t.z > 2);

/** One line of the table: the slowest and median tile against the floor, statuses. */
function row(label: string, answers: Answer[], floor: number, target: boolean): string {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const statuses = [...new Set(answers.map((a) => a.status))].sort().join(', ');
  const worst = ms[ms.length - 1]! / floor;
  const verdict = target ? (worst <= TARGET && answers.every((a) => a.status === 200) ? 'PASS' : '**FAIL**') : 'reported';
  return `| ${label} | ${answers.length} | ${statuses} | ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} | ${ms[ms.length - 1]!.toFixed(0)} | ${floor.toFixed(2)} | ${worst.toFixed(1)} | ${target ? `<= ${TARGET} ` : ''}${verdict} |`;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The fleet's resident memory now and at its peak, in MiB (Linux /proc). */
function memory(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mib = (name: string) => (Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024).toFixed(0);
  return `VmRSS ${mib('VmRSS')} MiB, VmHWM ${mib('VmHWM')} MiB`;
}

async function main(): Promise<void> {
  if (!existsSync(climateLatticeFile())) {
    const t0 = performance.now();
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'packages/fleet/src/cli.ts', 'climate-lattice'], {
      cwd: process.cwd(),
    });
    console.log(`(no climate lattice file on this machine: written first in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  console.log(`fleet: ${REPO === process.cwd() ? 'this checkout' : REPO}; a browser's ${BROWSER_CONNECTIONS} connections\n`);
  console.log('| view | tiles | statuses | median ms | slowest ms | tile floor ms | slowest / floor | target |');
  console.log('|---|---|---|---|---|---|---|---|');

  const first = await startFleet(PORT_BASE);
  try {
    const frame = await consoleFrame(first);
    const views = [await browse(first, frame, opening), await browse(first, frame, world)];
    const floor = tileFloor(views[1]!.find((a) => a.status === 200)!.png);
    console.log(row(`opening view (zoom ${OPENING_VIEW.zoom}), opened as the fleet says it is running`, views[0]!, floor, false));
    console.log(row('world view (zooms 0-2), next', views[1]!, floor, false));
  } finally {
    await stopFleet(first);
  }

  const fleet = await startFleet(PORT_BASE + 20);
  try {
    await sleep(OPEN_AFTER_S * 1000);
    const frame = await consoleFrame(fleet);
    const views = [await browse(fleet, frame, opening), await browse(fleet, frame, world)];
    const floor = tileFloor(views[1]!.find((a) => a.status === 200)!.png);
    console.log(
      row(`opening view (zoom ${OPENING_VIEW.zoom}), opened ${OPEN_AFTER_S} s after the fleet says it is running`, views[0]!, floor, true),
    );
    console.log(row('world view (zooms 0-2), next', views[1]!, floor, true));
    const cold = await browse(fleet, await consoleFrame(fleet, 1), world);
    console.log(row('world view of the frame an hour before (never drawn)', cold, floor, false));
    console.log(`\nthe fleet's memory after these: ${memory(fleet.child.pid!)}`);
  } finally {
    await stopFleet(fleet);
  }
}

await main();
