import { constants } from 'node:os';
import { createLogger } from '@fieldcast/kit';
import { stopOnSignals } from '../src/services.js';

/*
 * A served process stops gracefully at its first SIGTERM or SIGINT and exits at once at a second,
 * with the status a shell gives a process ended by that signal: 128 + its number (POSIX "Exit
 * Status for Commands"; SIGINT 130, SIGTERM 143).
 */
describe('stopOnSignals', () => {
  const exit = process.exit;
  let exits: (string | number | null | undefined)[];
  let added: { signal: NodeJS.Signals; listener: NodeJS.SignalsListener }[];

  beforeEach(() => {
    exits = [];
    added = [];
    process.exit = ((code) => void exits.push(code)) as typeof process.exit;
  });

  afterEach(() => {
    for (const { signal, listener } of added) process.removeListener(signal, listener);
    process.exit = exit;
  });

  /** stopOnSignals on a fleet whose stop never ends, the listeners it adds kept to remove. */
  function stopping(): void {
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    stopOnSignals({ services: [], stop: () => new Promise<void>(() => undefined) }, createLogger({ level: 'silent' }));
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) added.push({ signal, listener });
  }

  it.each([
    ['SIGTERM', 'SIGTERM', 128 + constants.signals.SIGTERM],
    ['SIGINT', 'SIGINT', 128 + constants.signals.SIGINT],
    ['SIGINT', 'SIGTERM', 128 + constants.signals.SIGTERM],
    ['SIGTERM', 'SIGINT', 128 + constants.signals.SIGINT],
  ] as const)('after %s, a second signal %s exits at once with %d', (first, second, code) => {
    stopping();
    // As Node delivers a signal: its listeners are called with its name.
    process.emit(first, first);
    expect(exits).toEqual([]);
    process.emit(second, second);
    expect(exits).toEqual([code]);
  });
});
