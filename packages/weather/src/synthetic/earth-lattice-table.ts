// Earth's climate lattice table, one per process, shared with its compute threads
// (docs/decisions/0330-climate-lattice-shared-with-threads.md).
import { workerData } from 'node:worker_threads';
import { adoptLatticeTable, latticeTable, type LatticeTable } from './climate-lattice.js';

/** The workerData key under which a thread receives its process's table of Earth's climate lattice. */
export const EARTH_CLIMATE_LATTICE_SHARE = 'fieldcastEarthClimateLattice';

let table: LatticeTable | undefined;

/** The table this thread was started with, if its process handed one. */
function handedTable(): LatticeTable | undefined {
  const handed: unknown = (workerData as Record<string, unknown> | null | undefined)?.[EARTH_CLIMATE_LATTICE_SHARE];
  return handed === undefined ? undefined : adoptLatticeTable(handed as LatticeTable);
}

/** Earth's lattice table: the one handed to this thread, or this process's own, made on first use (memory is taken as rows fill). */
export function earthLatticeTable(): LatticeTable {
  table ??= handedTable() ?? latticeTable();
  return table;
}

/**
 * Forgets the table, so the next is empty: for the fit script, which changes the coefficients
 * between rounds in one process (a thread it had handed the old table would keep reading it).
 */
export function forgetEarthLatticeTable(): void {
  table = undefined;
}

/** What a compute thread's workerData carries so it reads and fills this process's table. */
export function earthClimateLatticeForThreads(): Record<string, LatticeTable> {
  return { [EARTH_CLIMATE_LATTICE_SHARE]: earthLatticeTable() };
}
