/**
 * Files written beside their final name and renamed into place, so a reader sees a file whole or
 * its earlier version, never half of one (rename(2) replaces atomically). The temporary name is
 * the writer's own: the process id alone is not, since two processes on one shared volume can both
 * be PID 1 of their containers (docs/decisions/0252-sync-as-a-process.md), and two writes in one
 * process can overlap; one writer must never truncate, remove or rename another's half-written file.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';

/** A name beside `target` that no other writer uses. */
export const temporaryBeside = (target: string): string => `${target}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;

/** Writes `data` to `file` whole; a write that fails (a full disk) leaves `file` as it was and no temporary file. */
export async function writeWhole(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = temporaryBeside(file);
  try {
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}
