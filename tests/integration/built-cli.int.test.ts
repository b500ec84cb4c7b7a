import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reservePort } from '@fieldcast/runtime/testing';

// The container's program: `pnpm build` output run by plain `node`, the way the Dockerfile's
// runtime stage runs it. Built outside the repository so nothing resolves from its node_modules.
const root = process.cwd();
const out = mkdtempSync(join(tmpdir(), 'fieldcast-build-'));
let child: ChildProcess | undefined;

async function waitFor(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(url).catch(() => undefined);
    if (response?.ok) return response;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    if (child?.exitCode !== null && child?.exitCode !== undefined) throw new Error(`the service exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(() => {
  execFileSync(join(root, 'node_modules/.bin/tsx'), ['scripts/build.ts', '--out', out], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
});

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(out, { recursive: true, force: true });
});

it('holds the bundle and only packages that cannot be bundled: no transpiler', () => {
  const manifest = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as { type: string; dependencies: Record<string, string> };
  expect(manifest.type).toBe('module');
  expect(Object.keys(manifest.dependencies)).toContain('@electric-sql/pglite');
  for (const transpiler of ['tsx', 'typescript', '@swc/core']) expect(manifest.dependencies).not.toHaveProperty([transpiler]);
  // No bundler either: the console's page is built into console-page/ (decision 0194).
  expect(Object.keys(manifest.dependencies).sort()).toEqual(['@electric-sql/pglite']);
  expect(existsSync(join(out, 'node_modules', 'esbuild'))).toBe(false);
});

it('serves the console page prebuilt beside it, with no bundler at run time', async () => {
  const port = reservePort();
  child = spawn(process.execPath, [join(out, 'cli.js'), 'serve', 'console'], {
    cwd: out,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', FIELDCAST_AGRICULTURE_URL: 'http://127.0.0.1:9' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  expect((await waitFor(`${base}/readyz`, 30_000)).status).toBe(200);
  const page = await fetch(`${base}/console.js`);
  expect(page.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(Buffer.from(await page.arrayBuffer()).equals(readFileSync(join(out, 'console-page', 'console.js')))).toBe(true);
  expect(((await (await fetch(`${base}/config.json`)).json()) as { areas: Record<string, string> }).areas.agriculture).toBe(
    'http://127.0.0.1:9',
  );
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});

it('prints its help from the bundle', () => {
  const help = execFileSync(process.execPath, [join(out, 'cli.js'), 'help'], {
    cwd: out,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  expect(help).toMatch(/^fieldcast <command>/);
  expect(help).toMatch(/serve <area>/);
});

it('serves an area from the bundle against PostgreSQL and Kafka, with no transpiler loaded', async () => {
  const { DATABASE_URL, KAFKA_BROKERS } = process.env;
  if (!DATABASE_URL || !KAFKA_BROKERS) throw new Error('integration tests need DATABASE_URL and KAFKA_BROKERS');
  const port = reservePort();
  child = spawn(process.execPath, [join(out, 'cli.js'), 'serve', 'agriculture'], {
    cwd: out,
    // only what an operator sets: no NODE_OPTIONS, so no loader or transpiler can hook in
    env: { PATH: process.env.PATH, DATABASE_URL, KAFKA_BROKERS, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const health = await waitFor(`http://127.0.0.1:${port}/healthz`, 60_000);
  expect(health.status).toBe(200);
  expect((await waitFor(`http://127.0.0.1:${port}/readyz`, 30_000)).status).toBe(200);

  // The synthetic world's data files (the geography grid) and the compute threads' module come
  // with the bundle: a point answer is computed inline, a field's in a compute thread.
  const created = execFileSync(process.execPath, [join(out, 'cli.js'), 'accounts', 'create', '--name', 'bundle', '--json'], {
    cwd: out,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, DATABASE_URL },
  });
  const { applicationId, applicationKey } = JSON.parse(created) as { applicationId: string; applicationKey: string };
  const headers = {
    Authorization: `Basic ${Buffer.from(`${applicationId}:${applicationKey}`).toString('base64')}`,
    'Content-Type': 'application/json',
  };
  const base = `http://127.0.0.1:${port}`;
  const point = await fetch(`${base}/growing-degree-days/42.03/-93.62?start=2024-05-01&end=2024-05-31`, { headers });
  expect(point.status).toBe(200);
  expect(((await point.json()) as { degreeDays: number }).degreeDays).toBeGreaterThan(0);
  const ring = [
    [-93.64, 42.02],
    [-93.62, 42.02],
    [-93.62, 42.04],
    [-93.64, 42.04],
    [-93.64, 42.02],
  ];
  const field = await fetch(`${base}/fields`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ description: 'bundle', type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: [ring] }] }),
  });
  expect(field.status).toBe(201);
  const { id } = (await field.json()) as { id: string };
  const result = await fetch(`${base}/growing-degree-days/${id}?start=2024-05-01&end=2024-05-31`, { headers });
  expect(result.status).toBe(200);
  expect(((await result.json()) as { fieldMean: number }).fieldMean).toBeGreaterThan(0);

  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
});
