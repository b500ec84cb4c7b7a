import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGeography, earthGeography, GEOGRAPHY_FILE } from '@fieldcast/geography';
import { ClimateLattice, NODE_FIELDS, nodeOffset } from '../src/synthetic/climate-lattice.js';
import { cellClimate, climateLatticeFile, climatologyAt } from '../src/synthetic/geoclimate.js';

/** The climate lattice: nodes computed once, a file read instead of computing, a stale file never read. */
const FIELDS = NODE_FIELDS.length;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'fieldcast-lattice-'));
  dirs.push(d);
  return d;
}

/** A cheap stand-in for the climate: each field a different function of the node, counting its calls. */
function countingComputer(scale = 1) {
  const calls: string[] = [];
  return {
    calls,
    compute(i: number, j: number, out: Float64Array, at: number) {
      calls.push(`${i},${j}`);
      for (let f = 0; f < FIELDS; f++) out[at + f] = scale * (i * 10_000 + j + f / 10);
    },
  };
}

describe('ClimateLattice', () => {
  it('computes a node once, on first read, and wraps columns and clamps rows at the poles', () => {
    const c = countingComputer();
    const lattice = new ClimateLattice(c.compute, undefined);
    const row = lattice.nodeRow(10, 5);
    expect(row[nodeOffset(5)]).toBe(10 * 10_000 + 5);
    lattice.nodeRow(10, 5);
    lattice.nodeRow(10, 5 + 1440);
    expect(c.calls).toEqual(['10,5']);
    expect(lattice.nodeRow(10, -1)[nodeOffset(-1) + 2]).toBeCloseTo(10 * 10_000 + 1439 + 0.2, 9);
    expect(lattice.nodeRow(361, 0)).toBe(lattice.nodeRow(360, 0));
    expect(c.calls).toEqual(['10,5', '10,1439', '360,0']);
  });

  it('writes its file whole and another process reads every row from it without computing', () => {
    const dir = tempDir();
    const writer = countingComputer();
    const file = new ClimateLattice(writer.compute, dir).writeFile();
    expect(readdirSync(dir)).toEqual([file.slice(dir.length + 1)]);
    expect(statSync(file).size).toBe(721 * 1440 * FIELDS * 8);

    const reader = countingComputer();
    const lattice = new ClimateLattice(reader.compute, dir);
    for (const [i, j] of [
      [-360, 0],
      [0, 719],
      [57, 1439],
      [360, 3],
    ]) {
      const row = lattice.nodeRow(i!, j!);
      for (let f = 0; f < FIELDS; f++) expect(row[nodeOffset(j!) + f]).toBe(i! * 10_000 + j! + f / 10);
    }
    // only the nodes that name the file were computed, none of the rows read
    expect(reader.calls.length).toBe(256);
    expect(new ClimateLattice(reader.compute, dir).writeFile()).toBe(file);
  });

  it('names its file by the terms it computes, so a changed climate never reads an old table', () => {
    const dir = tempDir();
    const old = new ClimateLattice(countingComputer(1).compute, dir).writeFile();
    const changed = countingComputer(2);
    const lattice = new ClimateLattice(changed.compute, dir);
    expect(lattice.file()).not.toBe(old);
    expect(lattice.nodeRow(7, 7)[nodeOffset(7)]).toBe(2 * (7 * 10_000 + 7));
  });

  it('refuses a file cut short, naming it, rather than serving part of a row', () => {
    const dir = tempDir();
    const computer = countingComputer();
    const file = new ClimateLattice(computer.compute, dir).writeFile();
    truncateSync(file, 1000 * 1440 * 8);
    expect(() => new ClimateLattice(computer.compute, dir).nodeRow(300, 0)).toThrow(/ends before row 660: remove it/);
  });
});

describe("Earth's climate lattice", () => {
  it('gives every cell the climate computed node by node, whether read from its file or not', () => {
    // A second Geography of the same file has no lattice file: its nodes are computed here.
    const computedHere = createGeography(readFileSync(GEOGRAPHY_FILE));
    const lats = [-89.9, -41.3, -0.1, 0.12, 23.5, 41.99, 64.1, 89.99];
    const lons = [-180, -122.4, -0.01, 0.13, 93.6, 179.9];
    expect(cellClimate(lats, lons, earthGeography())).toEqual(cellClimate(lats, lons, computedHere));
    // The suite's global setup writes the file (scripts/test-global-setup.mjs), so the first was read from it.
    expect(existsSync(climateLatticeFile())).toBe(true);
  });

  it("gives a 1 degree tile's centre, kept in the table of tile centres, the climate of the point computed alone", () => {
    const computedHere = createGeography(readFileSync(GEOGRAPHY_FILE));
    const hours = [0, 4_380, 480_000.5];
    for (const [lat, lon] of [
      [41.5, -93.5],
      [-89.5, -179.5],
      [89.5, 179.5],
      [0.5, 0.5],
      [41.6, -93.5],
    ] as const) {
      for (const t of hours) {
        const once = climatologyAt(lat, lon, t);
        expect(climatologyAt(lat, lon, t)).toBe(once);
        expect(once).toBe(climatologyAt(lat, lon, t, computedHere));
      }
    }
  });
});
