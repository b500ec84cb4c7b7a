/**
 * A Zarr store over a local directory (Zarr v2 spec, "Storage": keys are paths relative to
 * the store root). zarrita ships one in @zarrita/storage, but that package is only a
 * transitive dependency here, and this one adds listing (for stores written without
 * consolidated metadata), refuses keys that would climb out of the root, and keeps recently
 * used chunk files open for ranged reads (see `getRange`).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AbsolutePath, AsyncMutable, RangeQuery } from 'zarrita';

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Chunk files kept open for ranged reads, per store. */
const OPEN_FILES = 64;

interface OpenFile {
  handle: Promise<fs.FileHandle>;
  /** reads in flight; an entry is closed only when it has none */
  users: number;
  /** dropped from the store: close once the last read in flight ends */
  closing: boolean;
}

function closeFile(f: OpenFile): Promise<void> {
  f.closing = true;
  if (f.users > 0) return Promise.resolve();
  return f.handle.then((h) => h.close()).catch(() => undefined);
}

/**
 * Handles still open when a store is garbage-collected without `close()`: closed then, so a
 * dropped ZarrSource leaks no descriptors (and Node never has to close a FileHandle on GC).
 */
const orphans = new FinalizationRegistry<Map<string, OpenFile>>((files) => {
  for (const f of files.values()) void closeFile(f);
});

export class FileStore implements AsyncMutable {
  readonly root: string;
  /** insertion order is recency: the first entry is the least recently used */
  private readonly files = new Map<string, OpenFile>();

  constructor(root: string) {
    this.root = path.resolve(root);
    orphans.register(this, this.files, this);
  }

  private file(key: AbsolutePath): string {
    const fp = path.join(this.root, key.slice(1));
    if (fp !== this.root && !fp.startsWith(this.root + path.sep)) {
      throw new RangeError(`zarr key ${key} escapes the store root`);
    }
    return fp;
  }

  async get(key: AbsolutePath): Promise<Uint8Array | undefined> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Bytes of one file by range (zarrita's `RangeQuery`). */
  async getRange(key: AbsolutePath, range: RangeQuery): Promise<Uint8Array | undefined> {
    if ('suffixLength' in range) {
      const size = await this.withFile(key, async (fh) => (await fh.stat()).size);
      if (size === undefined) return undefined;
      const length = Math.min(range.suffixLength, size);
      return this.getRange(key, { offset: size - length, length });
    }
    const buf = new Uint8Array(range.length);
    const n = await this.readInto(key, range.offset, buf);
    return n === undefined ? undefined : buf.subarray(0, n);
  }

  /**
   * Reads bytes of a file at `position` into `target`; the count read (short only at the end of
   * the file), or undefined when the file does not exist. The point-series path of ZarrSource
   * reads a few kB of a chunk per neighbour per request straight into its output, so the file
   * stays open between requests: one read per range, what a plain `fs.read` on an open file
   * costs, instead of open, read and close.
   */
  readInto(key: AbsolutePath, position: number, target: Uint8Array): Promise<number | undefined> {
    return this.withFile(key, async (fh) => {
      let done = 0;
      while (done < target.length) {
        const { bytesRead } = await fh.read(target, done, target.length - done, position + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done;
    });
  }

  /** Runs fn on the open file of key (opened and kept on first use); undefined if it does not exist. */
  private async withFile<T>(key: AbsolutePath, fn: (fh: fs.FileHandle) => Promise<T>): Promise<T | undefined> {
    let entry = this.files.get(key);
    if (entry) this.files.delete(key);
    else entry = this.openFile(key);
    this.files.set(key, entry);
    entry.users++;
    try {
      return await fn(await entry.handle);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    } finally {
      entry.users--;
      if (entry.closing && entry.users === 0) void closeFile(entry);
      if (this.files.size > OPEN_FILES) this.trim(OPEN_FILES);
    }
  }

  private openFile(key: AbsolutePath): OpenFile {
    const entry: OpenFile = { handle: fs.open(this.file(key), 'r'), users: 0, closing: false };
    // A failed open is not kept: the chunk may be written later.
    entry.handle.catch(() => {
      if (this.files.get(key) === entry) this.files.delete(key);
    });
    return entry;
  }

  /** Closes idle open files beyond `keep`, least recently used first. */
  private trim(keep: number): void {
    for (const [fp, f] of this.files) {
      if (this.files.size <= keep) break;
      if (f.users > 0) continue;
      this.files.delete(fp);
      void closeFile(f);
    }
  }

  /**
   * Closes the files kept open for ranged reads (a file with a read in flight closes when that
   * read ends). The store stays usable: later reads open files again.
   */
  async close(): Promise<void> {
    const open = [...this.files.values()];
    this.files.clear();
    await Promise.all(open.map(closeFile));
  }

  async set(key: AbsolutePath, value: Uint8Array): Promise<void> {
    const fp = this.file(key);
    await fs.mkdir(path.dirname(fp), { recursive: true });
    await fs.writeFile(fp, value);
  }

  /** Top-level array names (directories holding `.zarray` or an array `zarr.json`). */
  async listArrays(): Promise<string[]> {
    const entries = await fs.readdir(this.root, { withFileTypes: true });
    const names: string[] = [];
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const dir = path.join(this.root, e.name);
      const v2 = await fs.access(path.join(dir, '.zarray')).then(
        () => true,
        () => false,
      );
      if (v2) {
        names.push(e.name);
        continue;
      }
      const v3 = await fs.readFile(path.join(dir, 'zarr.json'), 'utf8').then(
        (t) => (JSON.parse(t) as { node_type?: string }).node_type === 'array',
        () => false,
      );
      if (v3) names.push(e.name);
    }
    return names.sort();
  }
}
