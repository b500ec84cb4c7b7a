import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase, type Database } from '@fieldcast/db';
import { UsageError } from './services.js';

/** The embedded runtime's files: PGlite under <dir>/pglite, the running fleet's pid, the demo account. */
export class DataDir {
  readonly path: string;

  constructor(dir: string) {
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

  /** PGlite is single-process: a second process opening the same files would corrupt them. */
  claim(): void {
    mkdirSync(this.path, { recursive: true });
    const holder = this.runningPid();
    if (holder !== null) throw new UsageError(`the embedded fleet (pid ${holder}) is using ${this.path}; stop it first or set FIELDCAST_DATA_DIR`);
    writeFileSync(this.pidFile, String(process.pid));
  }

  release(): void {
    if (this.runningPid() === process.pid) rmSync(this.pidFile, { force: true });
  }

  runningPid(): number | null {
    if (!existsSync(this.pidFile)) return null;
    const pid = Number(readFileSync(this.pidFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return null;
    try {
      process.kill(pid, 0);
      return pid;
    } catch {
      return null; // stale: that process is gone
    }
  }

  async open(): Promise<Database> {
    return openDatabase({ dataDir: this.pglite });
  }
}

/** The database a CLI command works on: DATABASE_URL, else the embedded data dir (fleet stopped). */
export async function openCliDatabase(env: { DATABASE_URL?: string; FIELDCAST_DATA_DIR: string }): Promise<{ db: Database; done: () => Promise<void> }> {
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
