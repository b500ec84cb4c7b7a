import { readFileSync } from 'node:fs';

/**
 * When a process started, as an opaque token that differs between two processes that held the
 * same pid: on Linux, field 22 of /proc/<pid>/stat (starttime, clock ticks after boot; proc(5)).
 * null where the system has no /proc or the process is gone: the caller then knows only that
 * the pid is alive.
 */
export function processStartTime(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Field 2, the command name, is in parentheses and may hold spaces and ')': count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const start = fields[19];
  return start && /^\d+$/.test(start) ? start : null;
}

/** Whether a process with this pid exists, whoever owns it. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What the data dir lock asks of the system about a pid (injected in tests). */
export interface ProcessTable {
  alive(pid: number): boolean;
  startTime(pid: number): string | null;
}

export const SYSTEM_PROCESSES: ProcessTable = { alive: processAlive, startTime: processStartTime };
