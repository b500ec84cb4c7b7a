import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { climateLatticeFile } from '@fieldcast/weather';

/** A `fieldcast climate-lattice` run in the background, until it ends or the fleet stops. */
export interface LatticeWriter {
  /** the lattice file being written */
  file: string;
  /** the writer's process */
  pid: number | undefined;
  /** ends the writer if it still runs and removes what it left half-written */
  stop(): Promise<void>;
}

/**
 * On a machine without the synthetic climate's lattice file (docs/decisions/0089-climate-lattice-file.md),
 * writes it in a child process at the lowest CPU priority, so the fleet answers meanwhile: until
 * the file is there every process and compute thread computes the nodes it reads (a first world
 * view of the console, a first global download), then reads the rows it has not yet computed
 * from the file. `command` runs the fieldcast CLI (the node arguments before its own). Null when
 * the file is there.
 */
export function writeLatticeInBackground(command: readonly string[], print: (line: string) => void): LatticeWriter | null {
  const file = climateLatticeFile();
  if (existsSync(file)) return null;
  // this process's environment as it reads it, FIELDCAST_CACHE_DIR above all
  const child = spawn(process.execPath, [...command, 'climate-lattice'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid;
  if (pid !== undefined) {
    try {
      setPriority(pid, constants.priority.PRIORITY_LOW);
    } catch {
      // a system that refuses a lower priority still gets the file, at the normal one
    }
  }
  void exited.then((code) => {
    if (code !== 0 && code !== null) print(`climate lattice: the background writer exited ${code}; run \`fieldcast climate-lattice\``);
  });
  return {
    file,
    pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      removeTemporaries(file, child);
    },
  };
}

/** The temporary file a stopped writer left (ClimateLattice.writeFile names it with the writer's pid). */
function removeTemporaries(file: string, child: ChildProcess): void {
  const prefix = `${basename(file)}.${child.pid}.`;
  for (const name of readdirSync(dirname(file))) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dirname(file), name), { force: true });
  }
}
