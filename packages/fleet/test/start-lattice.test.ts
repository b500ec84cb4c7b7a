import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { constants, getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { startFleet } from '../src/start.js';

const PORT_BASE = reservePortBase();

/**
 * `fieldcast start` on a machine without the climate lattice's file writes it in the background
 * (docs/decisions/0089-climate-lattice-file.md), and a stopped fleet leaves no writer and nothing
 * half-written behind.
 */
let dataDir: string;
let cacheDir: string;
const cacheBefore = process.env.FIELDCAST_CACHE_DIR;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-start-lattice-'));
  cacheDir = mkdtempSync(join(tmpdir(), 'fieldcast-cache-'));
  // read when the lattice is first asked for its file, in this file's fresh module registry
  process.env.FIELDCAST_CACHE_DIR = cacheDir;
});
afterAll(() => {
  process.env.FIELDCAST_CACHE_DIR = cacheBefore;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

const env = () => parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, PORT_BASE: String(PORT_BASE), LOG_LEVEL: 'silent' });
/** what the start banner says while the writer runs */
const WRITING = "writing the synthetic climate's lattice";
/** node running the CLI from its TypeScript sources, as `pnpm start` does */
const LATTICE_COMMAND = ['--import', 'tsx', join(process.cwd(), 'packages/fleet/src/cli.ts')];

describe('fieldcast start and the climate lattice file', () => {
  it('writes the missing file in a child at the lowest priority, and on stop ends it, leaving nothing half-written', async () => {
    const lines: string[] = [];
    const started = await startFleet(env(), {
      databaseSeed: await databaseTemplate(),
      print: (l) => lines.push(l),
      latticeCommand: LATTICE_COMMAND,
    });
    let stopped = false;
    try {
      expect(lines.some((l) => l.includes(WRITING) && l.includes(started.lattice!.file))).toBe(true);
      const { file, pid } = started.lattice!;
      expect(file.startsWith(join(cacheDir, 'climate-lattice-'))).toBe(true);
      // a child at the lowest priority, so the fleet's own work comes first
      expect(getPriority(pid!)).toBe(constants.priority.PRIORITY_LOW);
      await started.fleet.stop();
      stopped = true;
      expect(() => process.kill(pid!, 0)).toThrow();
      expect(readdirSync(cacheDir)).toEqual([]);
      expect(existsSync(file)).toBe(false);

      // once the file is there (a stand-in here: nothing reads weather), a start writes nothing
      writeFileSync(file, '');
      const again: string[] = [];
      const second = await startFleet(env(), {
        databaseSeed: await databaseTemplate(),
        print: (l) => again.push(l),
        latticeCommand: LATTICE_COMMAND,
      });
      await second.fleet.stop();
      expect(again.filter((l) => l.includes(WRITING))).toEqual([]);
      expect(readdirSync(cacheDir)).toEqual([file.slice(cacheDir.length + 1)]);
    } finally {
      if (!stopped) await started.fleet.stop();
    }
  }, 120_000);
});
