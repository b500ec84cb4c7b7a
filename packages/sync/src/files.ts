/**
 * Files written beside their final name and renamed into place
 * (docs/decisions/0250-synced-runs-staged-then-published.md). The temporary name is the writer's
 * own: the process id alone is not, since two sync processes on one shared volume can both be PID 1
 * of their containers (docs/decisions/0252-sync-as-a-process.md), and one writer must never
 * truncate, remove or rename the other's half-written file.
 */
import { randomBytes } from 'node:crypto';

/** A name beside `target` that no other writer uses. */
export const temporaryBeside = (target: string): string => `${target}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
