/**
 * The synthetic climate's 0.25 degree lattice as one static table (docs/decisions/0089-climate-lattice-file.md):
 * every node's climate terms (geoclimate.ts) are a pure function of the committed geography and
 * coefficients, about a million nodes for the globe and a minute of CPU to compute. A process
 * and its compute threads keep one table in shared memory
 * (docs/decisions/0330-climate-lattice-shared-with-threads.md): a node is computed once, by the
 * first thread to read it, and kept; when the whole table has been written to a file
 * (writeClimateLatticeFile: the test suite's global setup, the container build, the fleet at
 * start), a row is read from there instead, once, by the first thread to need it.
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

/**
 * A lattice's table in shared memory, so a process and its compute threads keep one copy and a
 * node computed or read from the file by any of them is there for all
 * (docs/decisions/0330-climate-lattice-shared-with-threads.md). Plain data that a thread receives
 * through workerData without a copy (structured clone shares a SharedArrayBuffer).
 */
export interface LatticeTable {
  /** every node's terms, laid out as the file: rows south to north, nodes west to east, NODE_FIELDS side by side */
  values: Float64Array;
  /** per node, NODE_EMPTY, NODE_CLAIMED (one thread is writing its terms) or NODE_DONE (written, never written again) */
  nodes: Uint8Array;
  /** per row r, at 2r its nodes done (LATTICE_COLUMNS: the row is whole) and at 2r + 1 a count bumped each time some are done, for waiters */
  rows: Int32Array;
}

const NODE_EMPTY = 0;
const NODE_CLAIMED = 1;
const NODE_DONE = 2;

/**
 * How long a thread waits for a node another thread has claimed before it makes the row its own
 * copy: a node takes tens of microseconds, so only a thread ended while writing one (a compute
 * pool closed mid-task) keeps a claim this long.
 */
const CLAIM_WAIT_MS = 1_000;

/** Room for a whole lattice on SharedArrayBuffers, nothing in it yet; memory is taken as rows are filled. */
export function latticeTable(): LatticeTable {
  const shared = (bytes: number) => new SharedArrayBuffer(bytes);
  return {
    values: new Float64Array(shared(ROWS * ROW_BYTES)),
    nodes: new Uint8Array(shared(ROWS * LATTICE_COLUMNS)),
    rows: new Int32Array(shared(2 * ROWS * Int32Array.BYTES_PER_ELEMENT)),
  };
}

/** A table handed to this thread, checked: one on ordinary ArrayBuffers would arrive as a copy in every thread, which the table is there to avoid. */
export function adoptLatticeTable(handed: LatticeTable): LatticeTable {
  const { values, nodes, rows } = handed;
  const sized = values?.length === ROWS * ROW_VALUES && nodes?.length === ROWS * LATTICE_COLUMNS && rows?.length === 2 * ROWS;
  if (!sized || ![values.buffer, nodes.buffer, rows.buffer].every((buffer) => buffer instanceof SharedArrayBuffer)) {
    throw new Error('handed climate lattice is not a table on SharedArrayBuffers');
  }
  return handed;
}

/** A row this thread keeps for itself, when a claim on the shared one was never released. */
interface OwnRow {
  row: Float64Array;
  /** per node, computed here; a row read from the file has none, being whole */
  filled: Uint8Array | undefined;
}

export class ClimateLattice {
  /** this thread's views of the table's rows (one array per row, whatever the column: geoclimate.ts keys its phases by it) */
  private readonly views: (Float64Array | undefined)[] = new Array(ROWS);
  /** rows this thread has seen whole: read with no atomics from then on */
  private readonly whole = new Uint8Array(ROWS);
  /** rows whose file read this thread has tried, the file not being there then: their nodes are computed */
  private readonly computing = new Uint8Array(ROWS);
  private readonly own = new Map<number, OwnRow>();
  /** a file row read before its nodes are claimed and copied into the table */
  private scratch: Float64Array | undefined;
  private fileName: string | undefined;
  /** the file, open for reading rows once it is there */
  private fd: number | undefined;

  constructor(
    private readonly compute: NodeComputer,
    /** the folder of the lattice file, or none to compute every node here */
    private readonly cacheDir: string | undefined,
    /** what the terms are computed from (coefficients, the geography's bytes), hashed into the file's name */
    private readonly inputs: readonly (string | Uint8Array)[] = [],
    /** the table: another thread's, to share its nodes, or one of this lattice's own */
    private readonly table: LatticeTable = latticeTable(),
    private readonly claimWaitMs = CLAIM_WAIT_MS,
  ) {}

  /**
   * The row holding node (i, j)'s terms from `nodeOffset(j)`, the node ensured:
   * i is clamped to the poles (a node past them is the pole's), j wraps around the globe.
   */
  nodeRow(i: number, j: number): Float64Array {
    const r = (i < -ROW_HALF ? -ROW_HALF : i > ROW_HALF ? ROW_HALF : i) + ROW_HALF;
    if (this.whole[r] === 1) return this.views[r]!;
    return this.ensure(r, column(j));
  }

  /**
   * Reads every row not yet in the table from the file, a few rows per turn of the event loop so
   * the process keeps answering meanwhile; nothing when the file is not there. Stops at the next
   * turn once `signal` is aborted (the area that asked has closed). Returns the rows read.
   */
  async readWhole(signal?: AbortSignal, rowsPerTurn = 16): Promise<number> {
    let read = 0;
    for (let r = 0; r < ROWS && !signal?.aborted; r++) {
      if (this.isWhole(r) || this.own.has(r)) continue;
      if (!this.fillFromFile(r)) return read;
      read++;
      if (read % rowsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return read;
  }

  /** How many of the table's rows are whole, of how many. */
  rowsWhole(): { whole: number; of: number } {
    let whole = 0;
    for (let r = 0; r < ROWS; r++) if (this.isWhole(r)) whole++;
    return { whole, of: ROWS };
  }

  /** The file this lattice reads, named by its fingerprint (computed once). */
  file(): string | undefined {
    if (!this.cacheDir) return undefined;
    this.fileName ??= join(this.cacheDir, `climate-lattice-${this.fingerprint()}.f64`);
    return this.fileName;
  }

  /** Writes the whole lattice to its file (computing what no thread has), unless it is there. */
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
    for (let c = 0; c < LATTICE_COLUMNS - 1; c++) this.nodeRow(r - ROW_HALF, c);
    return this.nodeRow(r - ROW_HALF, LATTICE_COLUMNS - 1);
  }

  /** This thread's view of row r of the table. */
  private view(r: number): Float64Array {
    return (this.views[r] ??= this.table.values.subarray(r * ROW_VALUES, (r + 1) * ROW_VALUES));
  }

  /** Whether row r is whole in the table (remembered here once seen). */
  private isWhole(r: number): boolean {
    if (this.whole[r] === 1) return true;
    if (Atomics.load(this.table.rows, 2 * r) !== LATTICE_COLUMNS) return false;
    this.view(r);
    this.whole[r] = 1;
    return true;
  }

  /**
   * Row r with node c in it: the table's row once the node is done there, by this thread (from
   * the file, whole, or computing the node) or by another. A node is written only by the thread
   * whose claim on it succeeded, and read by others only once marked done, so no thread reads
   * terms being written.
   */
  private ensure(r: number, c: number): Float64Array {
    const own = this.own.get(r);
    if (own) return this.ownNode(r, c, own);
    const { nodes, rows } = this.table;
    const k = r * LATTICE_COLUMNS + c;
    if (this.isWhole(r)) return this.views[r]!;
    const row = this.view(r);
    if (Atomics.load(nodes, k) === NODE_DONE) return row;
    // Read from the file, the row's nodes are all done but those another thread had claimed.
    const fromFile = this.computing[r] === 0 && this.fillFromFile(r);
    if (!fromFile && Atomics.compareExchange(nodes, k, NODE_EMPTY, NODE_CLAIMED) === NODE_EMPTY) {
      try {
        this.compute(r - ROW_HALF, c, row, c * FIELDS);
      } catch (err) {
        Atomics.store(nodes, k, NODE_EMPTY);
        throw err;
      }
      this.publish(r, [k]);
      return row;
    }
    // Another thread is writing the node: wait for it to say so.
    const deadline = performance.now() + this.claimWaitMs;
    for (;;) {
      const seen = Atomics.load(rows, 2 * r + 1);
      if (Atomics.load(nodes, k) === NODE_DONE) return row;
      const left = deadline - performance.now();
      if (left <= 0) break;
      Atomics.wait(rows, 2 * r + 1, seen, left);
    }
    // Its writer never finished (ended while writing): this thread keeps a row of its own.
    const mine: OwnRow = { row: new Float64Array(ROW_VALUES), filled: new Uint8Array(LATTICE_COLUMNS) };
    if (this.readRowInto(r, mine.row)) mine.filled = undefined;
    this.own.set(r, mine);
    return this.ownNode(r, c, mine);
  }

  private ownNode(r: number, c: number, own: OwnRow): Float64Array {
    if (own.filled && own.filled[c] === 0) {
      this.compute(r - ROW_HALF, c, own.row, c * FIELDS);
      own.filled[c] = 1;
    }
    return own.row;
  }

  /**
   * Row r from the file into the table, when the file is there: read whole into this thread's
   * scratch, then copied to each node no thread had claimed, each claimed first.
   */
  private fillFromFile(r: number): boolean {
    this.scratch ??= new Float64Array(ROW_VALUES);
    if (!this.readRowInto(r, this.scratch)) {
      this.computing[r] = 1;
      return false;
    }
    const { nodes, values } = this.table;
    const claimed: number[] = [];
    const base = r * LATTICE_COLUMNS;
    let run = -1;
    const copy = (end: number) => {
      if (run >= 0) values.set(this.scratch!.subarray(run * FIELDS, end * FIELDS), r * ROW_VALUES + run * FIELDS);
      run = -1;
    };
    for (let c = 0; c < LATTICE_COLUMNS; c++) {
      if (Atomics.compareExchange(nodes, base + c, NODE_EMPTY, NODE_CLAIMED) === NODE_EMPTY) {
        claimed.push(base + c);
        if (run < 0) run = c;
      } else copy(c);
    }
    copy(LATTICE_COLUMNS);
    this.publish(r, claimed);
    return true;
  }

  /** Marks claimed nodes of row r done, after their terms are written, and wakes threads waiting for them. */
  private publish(r: number, claimed: readonly number[]): void {
    if (claimed.length === 0) return;
    const { nodes, rows } = this.table;
    for (const k of claimed) Atomics.store(nodes, k, NODE_DONE);
    Atomics.add(rows, 2 * r, claimed.length);
    Atomics.add(rows, 2 * r + 1, 1);
    Atomics.notify(rows, 2 * r + 1);
  }

  /**
   * Row r of the file into `row`, when the file is there. The file is opened once and kept open:
   * a world map's first tile reads about 500 rows, and opening the file for each was a good part
   * of its cost. The file never changes once written (it is renamed into place).
   */
  private readRowInto(r: number, row: Float64Array): boolean {
    const file = this.file();
    if (!file) return false;
    if (this.fd === undefined) {
      if (!existsSync(file)) return false;
      const fd = (this.fd = openSync(file, 'r'));
      // A compute thread that ends closes it (a thread's `process` emits its own exit).
      process.once('exit', () => closeSync(fd));
    }
    const bytes = new Uint8Array(row.buffer, row.byteOffset, ROW_BYTES);
    let read = 0;
    while (read < ROW_BYTES) {
      const n = readSync(this.fd, bytes, read, ROW_BYTES - read, r * ROW_BYTES + read);
      if (n === 0) throw new Error(`climate lattice file ${file} ends before row ${r}: remove it to have it written again`);
      read += n;
    }
    return true;
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
