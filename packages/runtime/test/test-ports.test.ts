import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { reservePort, reservePortBase } from '../src/test-ports.js';

let locks: string;
beforeEach(() => {
  locks = mkdtempSync(join(tmpdir(), 'fieldcast-ports-'));
});
afterEach(() => rmSync(locks, { recursive: true, force: true }));

/** Writes a lock for `base` as if process `pid` held it. */
function heldBy(base: number, pid: number): void {
  mkdirSync(join(locks, String(base)));
  writeFileSync(join(locks, String(base), 'pid'), String(pid));
}

const BASES = Array.from({ length: 399 }, (_, i) => 20_000 + i * 32);

describe('reservePortBase', () => {
  it('gives each call a block of its own below the ephemeral range, held under this pid', () => {
    const first = reservePortBase(locks);
    const second = reservePortBase(locks);
    expect(second).not.toBe(first);
    for (const base of [first, second]) {
      expect(BASES).toContain(base);
      expect(readFileSync(join(locks, String(base), 'pid'), 'utf8')).toBe(String(process.pid));
    }
  });

  it('skips blocks held by a live process and takes over the one whose owner has exited', () => {
    const free = BASES[123]!;
    for (const base of BASES) if (base !== free) heldBy(base, process.ppid);
    // no process has pid 2^22 + 1 (above Linux's pid_max limit)
    heldBy(free, 4_194_305);
    expect(reservePortBase(locks)).toBe(free);
    expect(() => reservePortBase(locks)).toThrow(/no free block of 32 ports/);
  });
});

describe('reservePort', () => {
  it('hands out each port once, taking a new block when one is used up', () => {
    const ports = Array.from({ length: 40 }, () => reservePort());
    expect(new Set(ports).size).toBe(40);
    for (const port of ports) expect(port).toBeLessThan(32_768);
  });

  it('passes over a block where a server outside the tests listens', async () => {
    const first = reservePortBase(locks);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(first + 5, '127.0.0.1', resolve));
    try {
      // A fresh set of locks: only the listening server tells the block is taken.
      const others = mkdtempSync(join(tmpdir(), 'fieldcast-ports-'));
      try {
        expect(reservePortBase(others)).not.toBe(first);
      } finally {
        rmSync(others, { recursive: true, force: true });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
