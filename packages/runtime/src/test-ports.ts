import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Port blocks for tests that start a fleet on PORT_BASE. The blocks lie below Linux's ephemeral
 * range (ip_local_port_range, 32768-60999 by default), where the kernel never hands a port to an
 * outgoing connection or a listen(0), and each is claimed by a lock directory, so test processes
 * running side by side never pick the same block; a block where something already listens is
 * passed over. Synchronous, so a test file can take its base
 * at load time.
 */
const FIRST = 20_000;
const LAST = 32_767;
const LOCKS = join(tmpdir(), 'fieldcast-test-ports');
/** room for the console and every area's offset, and for a second fleet 20 ports above the first */
const BLOCK = 32;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The TCP ports something on this host listens on, from Linux's /proc/net/tcp and tcp6 (state 0A,
 * LISTEN); none where they cannot be read. A daemon the tests do not know of may hold one inside
 * a block (RabbitMQ's Erlang distribution port, 25672), and a fleet started there would fail to
 * listen.
 */
function listeningPorts(): Set<number> {
  const ports = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table: string;
    try {
      table = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of table.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === '0A' && local) ports.add(Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16));
    }
  }
  return ports;
}

/** Claims the block's lock directory, taking over one whose owner has exited. */
function claim(locks: string, base: number): boolean {
  const lock = join(locks, String(base));
  try {
    mkdirSync(lock);
  } catch {
    let owner = Number.NaN;
    try {
      owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      return false; // being claimed right now
    }
    if (!Number.isInteger(owner) || alive(owner)) return false;
    rmSync(lock, { recursive: true, force: true });
    try {
      mkdirSync(lock);
    } catch {
      return false;
    }
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  process.once('exit', () => rmSync(lock, { recursive: true, force: true }));
  return true;
}

/** A PORT_BASE whose block of ports is held for this process until it exits (`locks`: for tests of this). */
export function reservePortBase(locks = LOCKS): number {
  mkdirSync(locks, { recursive: true });
  const blocks = Math.floor((LAST - FIRST + 1) / BLOCK);
  const start = process.pid % blocks;
  const busy = listeningPorts();
  for (let i = 0; i < blocks; i += 1) {
    const base = FIRST + ((start + i) % blocks) * BLOCK;
    if (Array.from({ length: BLOCK }, (_, k) => base + k).some((port) => busy.has(port))) continue;
    if (claim(locks, base)) return base;
  }
  throw new Error(`no free block of ${BLOCK} ports between ${FIRST} and ${LAST}`);
}

let block: { base: number; next: number } | undefined;
/** One port of this process's held blocks, never handed out twice (for a single server a test starts). */
export function reservePort(): number {
  if (!block || block.next === BLOCK) block = { base: reservePortBase(), next: 0 };
  return block.base + block.next++;
}
