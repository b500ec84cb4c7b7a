/**
 * The synthetic climate's 0.25 degree lattice as one static table (docs/decisions/0089-climate-lattice-file.md):
 * every node's climate terms (geoclimate.ts) are a pure function of the committed geography and
 * coefficients, about a million nodes for the globe and a minute of CPU to compute. A process
 * computes the nodes it reads once and keeps them; when the whole table has been written to a file
 * (writeClimateLatticeFile: the test suite's global setup, the container build, the fleet at
 * start), every process and thread reads its rows from there instead.
 *
 * The file is named by a fingerprint of what the terms are computed from (the coefficients, the
 * geography) and of the terms at nodes spread over the globe, computed by the reader: a change of
 * the inputs, or of the code in a way that moves any sampled node, names another file. It is written whole to a temporary name and
 * renamed, so a reader never sees half of one.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Lattice spacing of the climate terms, degrees (about 28 km: finer than the terms vary). */
export const NODE_DEG = 0.25;
/** Rows from the south pole (index -ROW_HALF) to the north pole (+ROW_HALF), columns from 0 E eastwards. */
const ROW_HALF = Math.round(90 / NODE_DEG);
const ROWS = 2 * ROW_HALF + 1;
const LATTICE_COLUMNS = Math.round(360 / NODE_DEG);
/** The terms of a node, in this order (ClimateTerms in geoclimate.ts). */
export const NODE_FIELDS = ['mean', 'amplitude', 'lagDays', 'dryness', 'monsoon', 'precipLog', 'precipSeason'] as const;
const FIELDS = NODE_FIELDS.length;
const ROW_VALUES = LATTICE_COLUMNS * FIELDS;
const ROW_BYTES = ROW_VALUES * Float64Array.BYTES_PER_ELEMENT;
/** Format of the file: rows south to north, nodes west to east from 0 E, the fields of a node side by side, float64 little-endian. */
const FORMAT = 'fieldcast-climate-lattice-1';
/** Nodes whose terms name the file: a Fibonacci lattice over the sphere, land and sea, every latitude. */
const FINGERPRINT_NODES = 256;

/** Writes node (i, j)'s terms into `out` from `at` (NODE_FIELDS order); i is the row from the equator, j the column from 0 E. */
export type NodeComputer = (i: number, j: number, out: Float64Array, at: number) => void;

/** Where lattice files are kept: FIELDCAST_CACHE_DIR, or a folder of the system's temporary directory. */
export function climateCacheDir(): string {
  return process.env.FIELDCAST_CACHE_DIR || join(tmpdir(), 'fieldcast-cache');
}

export class ClimateLattice {
  private readonly rows: (Float64Array | undefined)[] = new Array(ROWS);
  /** per row, which nodes are computed (a row read from the file is whole) */
  private readonly filled: (Uint8Array | undefined)[] = new Array(ROWS);
  private fileName: string | undefined;
  /** the file, open for reading rows once it is there */
  private fd: number | undefined;

  constructor(
    private readonly compute: NodeComputer,
    /** the folder of the lattice file, or none to compute every node here */
    private readonly cacheDir: string | undefined,
    /** what the terms are computed from (coefficients, the geography's bytes), hashed into the file's name */
    private readonly inputs: readonly (string | Uint8Array)[] = [],
  ) {}

  /**
   * The row holding node (i, j)'s terms from `nodeOffset(j)`, the node ensured:
   * i is clamped to the poles (a node past them is the pole's), j wraps around the globe.
   */
  nodeRow(i: number, j: number): Float64Array {
    const r = (i < -ROW_HALF ? -ROW_HALF : i > ROW_HALF ? ROW_HALF : i) + ROW_HALF;
    let row = this.rows[r];
    let filled = this.filled[r];
    if (!row) {
      row = this.readRow(r);
      if (row) {
        this.rows[r] = row;
        return row;
      }
      row = this.rows[r] = new Float64Array(ROW_VALUES);
      filled = this.filled[r] = new Uint8Array(LATTICE_COLUMNS);
    }
    if (filled) {
      const c = column(j);
      if (filled[c] === 0) {
        this.compute(r - ROW_HALF, c, row, c * FIELDS);
        filled[c] = 1;
      }
    }
    return row;
  }

  /** The file this lattice reads, named by its fingerprint (computed once). */
  file(): string | undefined {
    if (!this.cacheDir) return undefined;
    this.fileName ??= join(this.cacheDir, `climate-lattice-${this.fingerprint()}.f64`);
    return this.fileName;
  }

  /** Writes the whole lattice to its file (computing what this process has not), unless it is there. */
  writeFile(): string {
    const file = this.file();
    if (!file) throw new Error('this lattice has no cache folder');
    if (existsSync(file)) return file;
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      for (let r = 0; r < ROWS; r++) {
        const row = this.wholeRow(r);
        writeSync(fd, new Uint8Array(row.buffer, row.byteOffset, row.byteLength));
      }
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
    return file;
  }

  /** Every node of row r (from the south pole), computed here where not yet known. */
  private wholeRow(r: number): Float64Array {
    for (let c = 0; c < LATTICE_COLUMNS; c++) this.nodeRow(r - ROW_HALF, c);
    return this.rows[r]!;
  }

  /**
   * Row r from the file, when the file is there; a row is read whole, once. The file is opened
   * once and kept open: a world map's first tile reads about 500 rows, and opening the file for
   * each was a good part of its cost. The file never changes once written (it is renamed into place).
   */
  private readRow(r: number): Float64Array | undefined {
    const file = this.file();
    if (!file) return undefined;
    if (this.fd === undefined) {
      if (!existsSync(file)) return undefined;
      const fd = (this.fd = openSync(file, 'r'));
      // A compute thread that ends closes it (a thread's `process` emits its own exit).
      process.once('exit', () => closeSync(fd));
    }
    const row = new Float64Array(ROW_VALUES);
    const bytes = new Uint8Array(row.buffer);
    let read = 0;
    while (read < ROW_BYTES) {
      const n = readSync(this.fd, bytes, read, ROW_BYTES - read, r * ROW_BYTES + read);
      if (n === 0) throw new Error(`climate lattice file ${file} ends before row ${r}: remove it to have it written again`);
      read += n;
    }
    return row;
  }

  /** A hash of the format, the inputs and the terms at FINGERPRINT_NODES nodes, computed here. */
  private fingerprint(): string {
    const hash = createHash('sha256').update(FORMAT);
    for (const input of this.inputs) hash.update(input);
    const terms = new Float64Array(FIELDS);
    const golden = Math.PI * (3 - Math.sqrt(5));
    for (let k = 0; k < FINGERPRINT_NODES; k++) {
      const z = 1 - (2 * (k + 0.5)) / FINGERPRINT_NODES;
      const i = Math.round((Math.asin(z) * 180) / Math.PI / NODE_DEG);
      const j = column(Math.round((((k * golden) % (2 * Math.PI)) * 180) / Math.PI / NODE_DEG));
      this.compute(i, j, terms, 0);
      hash.update(new Uint8Array(terms.buffer));
    }
    return hash.digest('hex').slice(0, 16);
  }
}

/** Column j wrapped onto 0 .. LATTICE_COLUMNS - 1. */
function column(j: number): number {
  return ((j % LATTICE_COLUMNS) + LATTICE_COLUMNS) % LATTICE_COLUMNS;
}

/** Where the terms of node column j start in its row (nodeRow). */
export function nodeOffset(j: number): number {
  return column(j) * FIELDS;
}
