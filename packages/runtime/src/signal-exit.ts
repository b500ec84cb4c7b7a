import { constants } from 'node:os';

/**
 * The status of a process ended by a signal, as a shell reports it: 128 + the signal's number
 * (POSIX "Exit Status for Commands"; SIGINT 130, SIGTERM 143). A module of its own, so the CLI
 * can install its signal handlers before it loads any area.
 */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}
