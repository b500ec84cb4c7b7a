/**
 * A Zarr store over a local directory (Zarr v2 spec, "Storage": keys are paths relative to
 * the store root). zarrita ships one in @zarrita/storage, but that package is only a
 * transitive dependency here, and this one adds listing (for stores written without
 * consolidated metadata) and refuses keys that would climb out of the root.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AbsolutePath, AsyncMutable, RangeQuery } from 'zarrita';

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class FileStore implements AsyncMutable {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
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

  async getRange(key: AbsolutePath, range: RangeQuery): Promise<Uint8Array | undefined> {
    let fh: fs.FileHandle | undefined;
    try {
      fh = await fs.open(this.file(key), 'r');
      let offset: number;
      let length: number;
      if ('suffixLength' in range) {
        const { size } = await fh.stat();
        length = Math.min(range.suffixLength, size);
        offset = size - length;
      } else {
        ({ offset, length } = range);
      }
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, offset);
      return buf.subarray(0, bytesRead);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    } finally {
      await fh?.close();
    }
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
      const v2 = await fs.access(path.join(dir, '.zarray')).then(() => true, () => false);
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
