import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseTemplate } from '@fieldcast/runtime/testing';
import { DataDir } from '../src/data-dir.js';
import { processStartTime, type ProcessTable } from '../src/process-start.js';

let path: string;
beforeEach(() => {
  path = mkdtempSync(join(tmpdir(), 'fieldcast-lock-'));
});
afterEach(() => rmSync(path, { recursive: true, force: true }));

const pidFile = () => join(path, 'fleet.pid');
const table = (alive: Record<number, string | null>): ProcessTable => ({
  alive: (pid) => pid in alive,
  startTime: (pid) => alive[pid] ?? null,
});

describe('the data dir lock', () => {
  const onLinux = platform() === 'linux' ? it : it.skip;

  onLinux('reads the start time of a process from /proc/<pid>/stat field 22', () => {
    const mine = processStartTime(process.pid);
    expect(mine).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(mine);
    // PID 1 started first: no process has an earlier start.
    expect(Number(processStartTime(1) ?? 0)).toBeLessThanOrEqual(Number(mine));
    expect(processStartTime(2 ** 22 + 1)).toBeNull();
  });

  onLinux('records the pid and its start time, and holds the dir against a second claim', () => {
    const dir = new DataDir(path);
    dir.claim();
    expect(readFileSync(pidFile(), 'utf8')).toBe(`${process.pid} ${processStartTime(process.pid)}`);
    expect(dir.runningPid()).toBe(process.pid);
    expect(() => new DataDir(path).claim()).toThrow(`the embedded fleet (pid ${process.pid}) is using`);
    dir.release();
    expect(dir.runningPid()).toBeNull();
  });

  onLinux('a live pid whose start time differs from the recorded one is a reused pid: the lock is stale', () => {
    writeFileSync(pidFile(), `${process.pid} 1`);
    const dir = new DataDir(path);
    expect(dir.runningPid()).toBeNull();
    expect(() => dir.claim()).not.toThrow();
    expect(dir.runningPid()).toBe(process.pid);
  });

  it('PID 1 after a container restart: alive, started later than the fleet that wrote the lock', () => {
    writeFileSync(pidFile(), '1 4242');
    expect(new DataDir(path, table({ 1: '9000' })).runningPid()).toBeNull();
    expect(new DataDir(path, table({ 1: '4242' })).runningPid()).toBe(1);
  });

  it('a pid that is gone is stale, whatever was recorded', () => {
    writeFileSync(pidFile(), '4321 77');
    expect(new DataDir(path, table({})).runningPid()).toBeNull();
  });

  it('without a start time on either side (no /proc, a lock of pid alone) a live pid holds the dir', () => {
    writeFileSync(pidFile(), '4321 77');
    expect(new DataDir(path, table({ 4321: null })).runningPid()).toBe(4321);
    writeFileSync(pidFile(), '4321');
    expect(new DataDir(path, table({ 4321: '99' })).runningPid()).toBe(4321);
  });

  it('where no start time can be read, the lock holds the pid alone', () => {
    const dir = new DataDir(path, { alive: () => true, startTime: () => null });
    dir.claim();
    expect(readFileSync(pidFile(), 'utf8')).toBe(String(process.pid));
  });
});

describe('the embedded database', () => {
  it('a new one starts from the seed; one that exists opens as it is, the seed ignored', async () => {
    const seed = await databaseTemplate();
    expect(seed).toBeDefined();
    const dir = new DataDir(path);
    const identityTables = `select count(*)::int as n from pg_tables where schemaname = 'identity'`;
    const first = await dir.open(seed);
    expect((await first.knex.raw(identityTables)).rows[0].n).toBeGreaterThan(0);
    await first.knex.raw('create table kept (n int)');
    await first.close();
    const again = await dir.open(seed);
    expect((await again.knex.raw(`select count(*)::int as n from pg_tables where tablename = 'kept'`)).rows[0].n).toBe(1);
    await again.close();
  });
});
