import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { databaseTemplate } from '@fieldcast/runtime/testing';
import { DataDir } from '../src/data-dir.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'packages/fleet/src/cli.ts');
const TSX = join(process.cwd(), 'node_modules/.bin/tsx');
/** Longer than any one command of the tests takes on a loaded machine. */
const CLI_TIMEOUT_MS = 60_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The `fieldcast` CLI as a user runs it: a real process on an embedded data dir of the test file's
 * own (a fresh temporary folder, removed after the file), never DATABASE_URL. The folder's
 * database starts as the suite's migrated template, as a fleet's first start leaves it, so no
 * process runs initdb. Call at the top level of a test file; `dir()` is the data dir once the
 * file's tests run.
 */
export function useCliDataDir(prefix: string): {
  dir(): string;
  fieldcast(...args: string[]): Promise<CliResult>;
  /** the CLI with these variables set besides (DATABASE_URL, say) */
  fieldcastWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult>;
} {
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), prefix));
    const db = await new DataDir(dataDir).open(await databaseTemplate());
    await db.close();
  });
  afterAll(() => rmSync(dataDir!, { recursive: true, force: true }));
  const dir = () => dataDir!;
  const fieldcastWith = async (extra: NodeJS.ProcessEnv, ...args: string[]): Promise<CliResult> => {
    const env = { ...process.env, FIELDCAST_DATA_DIR: dir(), DATABASE_URL: '', NODE_OPTIONS: '', ...extra };
    try {
      // A command that never ends (sync without --once polls until stopped) is killed rather than
      // outliving its test: it answers with no exit code.
      const { stdout, stderr } = await run(TSX, [CLI, ...args], { env, timeout: CLI_TIMEOUT_MS });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as CliResult;
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  return { dir, fieldcast: (...args) => fieldcastWith({}, ...args), fieldcastWith };
}
