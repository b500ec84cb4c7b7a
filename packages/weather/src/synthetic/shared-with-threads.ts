// What a process's compute threads receive from it so the synthetic world does not prepare its
// inputs again in every thread (docs/decisions/0325-geography-decoded-once-per-process.md,
// docs/decisions/0330-climate-lattice-shared-with-threads.md).
import { earthGeographyForThreads } from '@fieldcast/geography';
import { earthClimateLatticeForThreads } from './earth-lattice-table.js';

/**
 * The workerData of a compute thread that runs the synthetic world: the process's decoded Earth
 * geography (decoded here on first use) and the table of its climate lattice, shared through
 * SharedArrayBuffers, so a lattice row read or computed by any thread is there for all.
 */
export function syntheticWorldForThreads(): Record<string, unknown> {
  return { ...earthGeographyForThreads(), ...earthClimateLatticeForThreads() };
}
