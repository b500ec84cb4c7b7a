// The shell sessions of each page of PAGES, pasted in order into one bash per page against an
// embedded fleet as `pnpm start` runs it, and the start banner's "try" lines (docs-sessions.ts
// says what a session is and what its shown output promises). A command that fails, an HTTP
// error, or an output without the JSON members, status or link its comment shows fails the test.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { reservePortBase } from '@fieldcast/runtime/testing';
import { startFleet, type StartedFleet } from '../../packages/fleet/src/start.js';
import { missingFromOutput, sessionScript, sessionSteps, stepOutputs, type Step } from './docs-sessions.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The pages whose sessions run against the fleet, each in its own shell, with the fewest steps
 * each must have (a page whose sessions were all marked `sh no-run` by mistake fails). Sessions
 * that need more than a started fleet (PostgreSQL and Kafka, Kubernetes) are `sh no-run`.
 */
const PAGES: readonly [string, number][] = [
  ['docs/areas.md', 20],
  ['docs/operations.md', 1],
];

let work: string;
let started: StartedFleet;
const banner: string[] = [];
const PORT_BASE = String(reservePortBase());

beforeAll(async () => {
  // The sessions run where a user runs them: a folder holding the fleet's data dir, `.data`.
  work = mkdtempSync(join(tmpdir(), 'fieldcast-docs-'));
  mkdirSync(join(work, '.data'));
  const env = parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: join(work, '.data'), PORT_BASE, LOG_LEVEL: 'silent' });
  started = await startFleet(env, { print: (line) => banner.push(line) });
}, 180_000);

afterAll(async () => {
  await started?.fleet.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Runs a bash script in the sessions' folder. Asynchronously: the fleet answers from this
 * process, so a blocking spawn would leave every request waiting.
 */
function bash(script: string, timeoutMs = 600_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const file = join(work, 'session.sh');
  writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file], { cwd: work, env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT_BASE } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('what a session is and promises (docs-sessions.ts)', () => {
  const markdown = [
    '```sh',
    'curl -s "$A/x"',
    '# {"id":"<uuid>","name":"a",',
    '#  "tags":{}}',
    'B=2',
    'curl -s -D - "$A/y"',
    '# HTTP/1.1 200 OK',
    '```',
    '```sh no-run',
    'gdalinfo x.tif',
    '```',
  ].join('\n');

  it('splits `sh` blocks into steps at each shown output, and leaves `sh no-run` out', () => {
    const steps = sessionSteps(markdown);
    expect(steps.map((s) => [s.line, s.code, s.shown.length])).toEqual([
      [2, ['curl -s "$A/x"'], 2],
      [5, ['B=2', 'curl -s -D - "$A/y"'], 1],
    ]);
  });

  it('finds what an output lacks of the members and status shown', () => {
    const [first, second] = sessionSteps(markdown) as [Step, Step];
    expect(missingFromOutput(first, '{"id":"1","name":"a","tags":{}}')).toEqual([]);
    expect(missingFromOutput(first, '{"id":"1","label":"a","tags":{}}')).toEqual(['"name":']);
    expect(missingFromOutput(second, 'HTTP/1.1 404 Not Found')).toEqual(['HTTP status 200']);
  });
});

describe('the docs pages against a started fleet', () => {
  it.each(PAGES)(
    'every session of %s runs, in order, and prints what its comments show',
    async (page, fewest) => {
      const steps = sessionSteps(readFileSync(join(ROOT, page), 'utf8'));
      expect(steps.length).toBeGreaterThanOrEqual(fewest);
      const run = await bash(sessionScript(steps), 540_000);
      const outputs = stepOutputs(run.stdout);
      const reached = Math.max(-1, ...outputs.keys());
      const where = (k: number) => `${page} line ${steps[k]!.line}:\n${steps[k]!.code.join('\n')}`;
      if (run.status !== 0) {
        throw new Error(
          `The session stopped (exit ${run.status}) in the step at ${where(reached)}\n${outputs.get(reached) ?? ''}\n${run.stderr}`,
        );
      }
      expect(reached).toBe(steps.length - 1);
      const broken = steps.flatMap((step, k) => {
        const missing = missingFromOutput(step, outputs.get(k) ?? '');
        return missing.length > 0 ? [`${where(k)}\nlacks ${missing.join(', ')}`] : [];
      });
      expect(broken).toEqual([]);
    },
    600_000,
  );

  it('the start banner’s try lines answer with items', async () => {
    const tries = banner.flatMap((line) => /^\s*try: (curl .*)$/.exec(line)?.[1] ?? []);
    expect(tries).toHaveLength(2);
    for (const command of tries) {
      const run = await bash(`set -eo pipefail\n${command.replace(/^curl /, 'curl -s --fail-with-body ')}`);
      expect({ command, status: run.status }).toEqual({ command, status: 0 });
      const body = JSON.parse(run.stdout) as unknown[] | { data: { totalItems: number; items: unknown[] } };
      const items = Array.isArray(body) ? body : body.data.items;
      expect({ command, hasItems: items.length > 0 }).toEqual({ command, hasItems: true });
    }
  }, 120_000);
});
