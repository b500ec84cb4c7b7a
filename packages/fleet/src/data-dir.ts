import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase, type Database } from '@fieldcast/db';
import { SYSTEM_PROCESSES, type ProcessTable } from './process-start.js';
import { UsageError } from './usage-error.js';

/** The embedded runtime's files: PGlite under <dir>/pglite, the running fleet's pid, the demo account. */
export class DataDir {
  readonly path: string;

  constructor(
    dir: string,
    private readonly processes: ProcessTable = SYSTEM_PROCESSES,
  ) {
    this.path = resolve(dir);
  }

  get pglite(): string {
    return join(this.path, 'pglite');
  }

  get demoAccountFile(): string {
    return join(this.path, 'demo-account.json');
  }

  private get pidFile(): string {
    return join(this.path, 'fleet.pid');
  }

  /**
   * PGlite is single-process: a second process opening the same files would corrupt them. The
   * lock file holds the pid and the process's start time, so a pid reused by another process
   * (PID 1 after a container restart) does not hold the dir.
   */
  claim(): void {
    mkdirSync(this.path, { recursive: true });
    const holder = this.runningPid();
    if (holder !== null)
      throw new UsageError(`the embedded fleet (pid ${holder}) is using ${this.path}; stop it first or set FIELDCAST_DATA_DIR`);
    const started = this.processes.startTime(process.pid);
    writeFileSync(this.pidFile, started === null ? String(process.pid) : `${process.pid} ${started}`);
  }

  release(): void {
    if (this.runningPid() === process.pid) rmSync(this.pidFile, { force: true });
  }

  /**
   * The pid of the fleet holding the dir, or null. A live pid holds it unless both start times
   * are known and differ (the pid was reused); with either unknown (no /proc, a lock file of
   * pid alone) a live pid holds it, the safe side for the database.
   */
  runningPid(): number | null {
    if (!existsSync(this.pidFile)) return null;
    const [pidText, recorded] = readFileSync(this.pidFile, 'utf8').trim().split(/\s+/);
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    if (!this.processes.alive(pid)) return null; // stale: that process is gone
    const current = this.processes.startTime(pid);
    if (recorded !== undefined && current !== null && recorded !== current) return null; // stale: another process has that pid now
    return pid;
  }

  /** The embedded database; a new one starts from `seed` (a dump of a migrated one) where given. */
  async open(seed?: Blob): Promise<Database> {
    const fresh = !existsSync(join(this.pglite, 'PG_VERSION'));
    return openDatabase({ dataDir: this.pglite, ...(seed && fresh ? { from: seed } : {}) });
  }
}

/** The database a CLI command works on: DATABASE_URL, else the embedded data dir (fleet stopped). */
export async function openCliDatabase(env: {
  DATABASE_URL?: string;
  FIELDCAST_DATA_DIR: string;
}): Promise<{ db: Database; done: () => Promise<void> }> {
  if (env.DATABASE_URL) {
    const db = await openDatabase({ url: env.DATABASE_URL });
    return { db, done: () => db.close() };
  }
  const dir = new DataDir(env.FIELDCAST_DATA_DIR);
  dir.claim();
  const db = await dir.open();
  return {
    db,
    done: async () => {
      await db.close();
      dir.release();
    },
  };
}
