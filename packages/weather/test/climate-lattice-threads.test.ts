import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { EARTH_GEOGRAPHY_SHARE } from '@fieldcast/geography';
import { ClimateLattice, latticeTable, type LatticeTable, NODE_FIELDS, nodeOffset } from '../src/synthetic/climate-lattice.js';
import { EARTH_CLIMATE_LATTICE_SHARE, earthLatticeTable } from '../src/synthetic/earth-lattice-table.js';
import { cellClimate } from '../src/synthetic/geoclimate.js';
import { syntheticWorldForThreads } from '../src/synthetic/shared-with-threads.js';

/*
 * docs/decisions/0330-climate-lattice-shared-with-threads.md: a process and its compute threads
 * keep one table of the climate lattice in shared memory; a node computed or read from the file by
 * any of them is there for all, and each node is written by one thread only.
 */
const FIELDS = NODE_FIELDS.length;
const COLUMNS = 1440;
const ROW_HALF = 360;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A cheap stand-in for the climate: each field a function of the node (the same in every thread). */
const TERMS = `(i, j, out, at) => { for (let f = 0; f < ${FIELDS}; f++) out[at + f] = i * 10_000 + j + f / 10; }`;
const terms = (i: number, j: number, f: number) => i * 10_000 + j + f / 10;
/** Counts each call in `counts` (one word per node, shared), then computes TERMS. */
const counting =
  (counts: Int32Array) =>
  (i: number, j: number, out: Float64Array, at: number): void => {
    Atomics.add(counts, (i + ROW_HALF) * COLUMNS + j, 1);
    for (let f = 0; f < FIELDS; f++) out[at + f] = terms(i, j, f);
  };
const countsTable = () => new Int32Array(new SharedArrayBuffer((2 * ROW_HALF + 1) * COLUMNS * 4));

/** Runs `body` in a new thread (tsx registered, as workerModule does) with the weather sources at `m`; resolves with what it posts. */
function inThread(body: string, workerData: Record<string, unknown>): Promise<Record<string, unknown>> {
  const src = (file: string) => JSON.stringify(new URL(`../src/synthetic/${file}`, import.meta.url).href);
  const code = `import('tsx/esm/api').then(async ({ register }) => {
    register();
    const { parentPort, workerData } = await import('node:worker_threads');
    const m = { ...(await import(${src('climate-lattice.ts')})), ...(await import(${src('geoclimate.ts')})),
      ...(await import(${src('earth-lattice-table.ts')})) };
    const counting = (counts) => (i, j, out, at) => { Atomics.add(counts, (i + ${ROW_HALF}) * ${COLUMNS} + j, 1); (${TERMS})(i, j, out, at); };
    ${body}
  });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData });
    worker.once('message', (message: Record<string, unknown>) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

let fileDir: string | undefined;
/** A folder holding the file of the stand-in's whole lattice, written once for the tests that read it (a few seconds). */
function latticeFileDir(): string {
  if (!fileDir) {
    fileDir = mkdtempSync(join(tmpdir(), 'fieldcast-lattice-'));
    dirs.push(fileDir);
    new ClimateLattice(counting(countsTable()), fileDir).writeFile();
  }
  return fileDir;
}

describe('the climate lattice shared with threads', () => {
  it("a thread reads the nodes its process computed, and the process those the thread computed, neither computing the other's", async () => {
    const table = latticeTable();
    const counts = countsTable();
    const lattice = new ClimateLattice(counting(counts), undefined, [], table);
    expect(lattice.nodeRow(10, 5)[nodeOffset(5)]).toBe(terms(10, 5, 0));
    const reply = await inThread(
      `const lattice = new m.ClimateLattice(counting(workerData.counts), undefined, [], m.adoptLatticeTable(workerData.table));
      const seen = Array.from(lattice.nodeRow(10, 5).subarray(m.nodeOffset(5), m.nodeOffset(5) + ${FIELDS}));
      lattice.nodeRow(-20, 700);
      parentPort.postMessage({ seen, shared: lattice.nodeRow(10, 5).buffer === workerData.table.values.buffer });`,
      { table, counts },
    );
    expect(reply.shared).toBe(true);
    expect(reply.seen).toEqual(Array.from({ length: FIELDS }, (_, f) => terms(10, 5, f)));
    const row = lattice.nodeRow(-20, 700);
    for (let f = 0; f < FIELDS; f++) expect(row[nodeOffset(700) + f]).toBe(terms(-20, 700, f));
    // each node computed once, by the first thread to read it
    expect(Atomics.load(counts, (10 + ROW_HALF) * COLUMNS + 5)).toBe(1);
    expect(Atomics.load(counts, (-20 + ROW_HALF) * COLUMNS + 700)).toBe(1);
  }, 60_000);

  it('threads filling the same rows at once compute each node once and read every node whole', async () => {
    const table = latticeTable();
    const counts = countsTable();
    const lattice = new ClimateLattice(counting(counts), undefined, [], table);
    // Two threads and the process read the same three rows, from opposite ends and the middle.
    const sweep = (from: number, step: number) =>
      `const lattice = new m.ClimateLattice(counting(workerData.counts), undefined, [], m.adoptLatticeTable(workerData.table));
      let wrong = 0;
      for (let n = 0; n < 3 * ${COLUMNS}; n++) {
        const k = (${from} + ${step} * n + 3 * ${COLUMNS}) % (3 * ${COLUMNS}), i = 100 + Math.floor(k / ${COLUMNS}), j = k % ${COLUMNS};
        const row = lattice.nodeRow(i, j);
        for (let f = 0; f < ${FIELDS}; f++) if (row[m.nodeOffset(j) + f] !== i * 10_000 + j + f / 10) wrong++;
      }
      parentPort.postMessage({ wrong });`;
    const threads = [inThread(sweep(0, 1), { table, counts }), inThread(sweep(-1, -1), { table, counts })];
    for (let k = 0; k < 3 * COLUMNS; k += 7) lattice.nodeRow(100 + Math.floor(k / COLUMNS), k % COLUMNS);
    expect((await Promise.all(threads)).map((r) => r.wrong)).toEqual([0, 0]);
    for (let i = 100; i < 103; i++) {
      for (let j = 0; j < COLUMNS; j++) expect(Atomics.load(counts, (i + ROW_HALF) * COLUMNS + j)).toBe(1);
      // the row is whole: read from now on without atomics
      expect(Atomics.load(table.rows, 2 * (i + ROW_HALF))).toBe(COLUMNS);
    }
  }, 60_000);

  it('a row read from the file by one thread is read by no other, and reading the whole file reads only the rest', async () => {
    const dir = latticeFileDir();
    const table = latticeTable();
    const lattice = new ClimateLattice(counting(countsTable()), dir, [], table);
    lattice.nodeRow(0, 0);
    expect(Atomics.load(table.rows, 2 * ROW_HALF)).toBe(COLUMNS);
    const reply = await inThread(
      `const lattice = new m.ClimateLattice(counting(workerData.counts), workerData.dir, [], m.adoptLatticeTable(workerData.table));
      const row = lattice.nodeRow(0, 3);
      const read = await lattice.readWhole();
      parentPort.postMessage({ read, value: row[m.nodeOffset(3)] });`,
      { table, counts: countsTable(), dir },
    );
    // every row but the process's, and none computed: a row once in the table is never read again
    expect(reply).toEqual({ read: 2 * ROW_HALF, value: terms(0, 3, 0) });
    expect(await lattice.readWhole()).toBe(0);
    expect(lattice.nodeRow(-360, 1439)[nodeOffset(1439)]).toBe(terms(-360, 1439, 0));
  }, 60_000);

  it('a read of the whole file stops at the turn after its signal is aborted, and the next read goes on from there', async () => {
    const dir = latticeFileDir();
    const lattice = new ClimateLattice(counting(countsTable()), dir, [], latticeTable());
    expect(await lattice.readWhole(AbortSignal.abort())).toBe(0);
    const reading = new AbortController();
    // aborted on the next turn of the event loop, before the read's second turn
    setImmediate(() => reading.abort());
    expect(await lattice.readWhole(reading.signal, 16)).toBe(16);
    expect(await lattice.readWhole()).toBe(2 * ROW_HALF + 1 - 16);
  }, 60_000);

  it('a thread whose node another claimed and never finished (ended while writing) reads a row of its own', () => {
    const table = latticeTable();
    const counts = countsTable();
    const r = 5 + ROW_HALF;
    Atomics.store(table.nodes, r * COLUMNS + 9, 1);
    const lattice = new ClimateLattice(counting(counts), undefined, [], table, 20);
    const row = lattice.nodeRow(5, 9);
    expect(row.buffer).not.toBe(table.values.buffer);
    expect(row[nodeOffset(9)]).toBe(terms(5, 9, 0));
    expect(lattice.nodeRow(5, 10)).toBe(row);
    // the claimed node left to its claimer, nothing written over it
    expect(Atomics.load(table.nodes, r * COLUMNS + 9)).toBe(1);
    expect(table.values[r * COLUMNS * FIELDS + 9 * FIELDS]).toBe(0);
  });

  it('refuses a handed table that is not on SharedArrayBuffers', async () => {
    const table: LatticeTable = { ...latticeTable(), nodes: new Uint8Array(721 * COLUMNS) };
    const reply = await inThread(
      `try { m.adoptLatticeTable(workerData.table); parentPort.postMessage({ error: '' }); } catch (err) { parentPort.postMessage({ error: String(err.message) }); }`,
      { table },
    );
    expect(reply.error).toMatch('handed climate lattice is not a table on SharedArrayBuffers');
  }, 60_000);
});

describe("Earth's climate lattice in the threads of the synthetic world", () => {
  it("a compute thread started with syntheticWorldForThreads reads its process's rows and fills rows its process reads", async () => {
    const lats = [41.3, 41.6];
    const lons = [-93.6, -93.1, 12.5];
    const processClimate = cellClimate(lats, lons);
    const handed = syntheticWorldForThreads();
    const table = earthLatticeTable();
    expect(handed[EARTH_CLIMATE_LATTICE_SHARE]).toBe(table);
    expect(handed[EARTH_GEOGRAPHY_SHARE]).toBeDefined();
    // rows 41 N (the process's) and 60 S (the thread's): whole in the table or not
    const row = (lat: number) => 2 * (Math.floor(lat / 0.25) + ROW_HALF);
    expect(Atomics.load(table.rows, row(41.25))).toBeGreaterThan(0);
    expect(Atomics.load(table.rows, row(-60))).toBe(0);
    const reply = await inThread(
      `const table = m.earthLatticeTable();
      const before = Atomics.load(table.rows, ${row(41.25)});
      const climate = m.cellClimate(${JSON.stringify(lats)}, ${JSON.stringify(lons)});
      m.cellClimate([-60], [0]);
      parentPort.postMessage({ shared: table.values.buffer === workerData.${EARTH_CLIMATE_LATTICE_SHARE}.values.buffer, before,
        mean: Array.from(climate.mean), seasonSin: Array.from(climate.seasonSin), precipLog: Array.from(climate.precipLog) });`,
      handed,
    );
    expect(reply.shared).toBe(true);
    expect(reply.before).toBeGreaterThan(0);
    expect(reply.mean).toEqual(Array.from(processClimate.mean));
    expect(reply.seasonSin).toEqual(Array.from(processClimate.seasonSin));
    expect(reply.precipLog).toEqual(Array.from(processClimate.precipLog));
    expect(Atomics.load(table.rows, row(-60))).toBeGreaterThan(0);
  }, 120_000);
});
