// What a process's compute threads receive from it so the synthetic world does not prepare its
// inputs again in every thread (docs/decisions/0325-geography-decoded-once-per-process.md).
import { earthGeographyForThreads } from '@fieldcast/geography';

/**
 * The workerData of a compute thread that runs the synthetic world: the process's decoded Earth
 * geography (decoded here on first use), shared read-only through a SharedArrayBuffer.
 */
export function syntheticWorldForThreads(): Record<string, unknown> {
  return { ...earthGeographyForThreads() };
}
