/**
 * The cache of produced files under the service's data dir (docs/architecture.md §6: an explicit,
 * bounded, keyed cache; docs/decisions/0163-download-cache.md). A file is addressed by the hash
 * of what it is made from (its key), kept with a small record of its size and checksum, and
 * dropped least recently used first once the files pass the cap. Two requests for a file not yet
 * made share one making of it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CachedFile {
  key: string;
  path: string;
  size: number;
  /** SHA-256 of the file's bytes, hex */
  sha256: string;
  /** epoch ms of its last use */
  usedMs: number;
}

/** Makes the file at `path` (a new, empty name in the cache's directory) and returns its size. */
export type Maker = (path: string) => Promise<number>;

const KEY = /^[0-9a-f]{64}$/;

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class FileCache {
  private readonly files = new Map<string, CachedFile>();
  private readonly making = new Map<string, Promise<CachedFile>>();
  private total = 0;
  private opened: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly capBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads what an earlier process left: complete files with their records; half-made ones are removed. */
  private open(): Promise<void> {
    this.opened ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      for (const name of await readdir(this.dir)) {
        const path = join(this.dir, name);
        if (name.endsWith('.tmp')) {
          await rm(path, { force: true });
          continue;
        }
        const key = name.replace(/\.json$/, '');
        if (!name.endsWith('.json') || !KEY.test(key)) continue;
        try {
          const record = JSON.parse(await readFile(path, 'utf8')) as { file: string; size: number; sha256: string };
          const file = join(this.dir, record.file);
          const info = await stat(file);
          if (info.size !== record.size) throw new Error('size differs');
          this.add({ key, path: file, size: record.size, sha256: record.sha256, usedMs: info.mtimeMs });
        } catch {
          await rm(path, { force: true });
        }
      }
      await this.evict();
    })();
    return this.opened;
  }

  private add(file: CachedFile): void {
    const old = this.files.get(file.key);
    if (old) this.total -= old.size;
    this.files.set(file.key, file);
    this.total += file.size;
  }

  /** The file of this key if it is made, without touching its use. */
  async peek(key: string): Promise<CachedFile | undefined> {
    await this.open();
    return this.files.get(key);
  }

  /** The file of this key, made by `make` unless it is already; each use makes it the most recent. */
  async get(key: string, extension: string, make: Maker): Promise<CachedFile> {
    if (!KEY.test(key)) throw new Error(`not a cache key: ${key}`);
    await this.open();
    const found = this.files.get(key);
    if (found) {
      found.usedMs = this.now();
      // The modification time records the use for the next process; a failure only loses that.
      await utimes(found.path, new Date(), new Date(found.usedMs)).catch(() => undefined);
      return found;
    }
    let pending = this.making.get(key);
    if (!pending) {
      pending = this.make(key, extension, make).finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    return pending;
  }

  private async make(key: string, extension: string, make: Maker): Promise<CachedFile> {
    const name = `${key}.${extension}`;
    const temporary = join(this.dir, `${key}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const size = await make(temporary);
      const sha256 = await sha256Of(temporary);
      const path = join(this.dir, name);
      await rename(temporary, path);
      await writeFile(join(this.dir, `${key}.json`), JSON.stringify({ file: name, size, sha256 }));
      const file: CachedFile = { key, path, size, sha256, usedMs: this.now() };
      this.add(file);
      await this.evict(key);
      return file;
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  /**
   * Drops the least recently used files until the rest fit under the cap, keeping `keep` (the file
   * just made, even when it alone is over the cap). A file being read stays readable: removing its
   * name leaves an open descriptor's data in place (POSIX unlink).
   */
  private async evict(keep?: string): Promise<void> {
    if (this.total <= this.capBytes) return;
    const oldest = [...this.files.values()].filter((f) => f.key !== keep).sort((a, b) => a.usedMs - b.usedMs);
    for (const f of oldest) {
      if (this.total <= this.capBytes) break;
      this.files.delete(f.key);
      this.total -= f.size;
      await rm(join(this.dir, `${f.key}.json`), { force: true });
      await rm(f.path, { force: true });
    }
  }

  /** Bytes the cache holds now. */
  get bytes(): number {
    return this.total;
  }
}
