/** How a fleet runs: every area in one process on one machine, or one area per container. */
export type RunMode = 'embedded' | 'distributed';

/**
 * The address to listen on: HOST when set. Otherwise the embedded fleet, which prints its demo
 * credentials and is meant for one machine, listens on the loopback interface only; the
 * distributed mode runs in a container reached through its Service or port mapping, so it
 * listens on every interface (docs/architecture.md §2).
 */
export function listenHost(mode: RunMode, host: string | undefined): string {
  return host ?? (mode === 'embedded' ? '127.0.0.1' : '0.0.0.0');
}
