import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAssets } from '../src/bundle.js';
import { readPrebuilt, writePrebuilt } from '../src/prebuilt.js';

// The bundle serves the page `pnpm build` wrote beside cli.js (decision 0194): what it reads back
// must be what the sources build, byte for byte and with the same media types.
describe('the prebuilt console page', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'fieldcast-page-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back every file written, with its media type', async () => {
    const built = await buildAssets();
    writePrebuilt(built, join(dir, 'console-page'));
    const read = readPrebuilt(join(dir, 'console-page'));
    expect([...read.keys()].sort()).toEqual([...built.keys()].sort());
    for (const [path, asset] of built) {
      expect(read.get(path)!.type).toBe(asset.type);
      expect(read.get(path)!.body.equals(asset.body)).toBe(true);
    }
    expect(read.get('/')!.body.toString()).toContain('<script src="/console.js"></script>');
  }, 60_000);

  it('says how to build it when the directory is missing', () => {
    expect(() => readPrebuilt(join(dir, 'console-page'))).toThrow(/console's page is not built: .*pnpm build/);
  });
});
