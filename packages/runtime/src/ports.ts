/**
 * The console's place in the port table (docs/architecture.md §2): it listens on PORT_BASE itself,
 * each area on PORT_BASE plus the `port` offset its service definition declares.
 */
export const CONSOLE = { area: 'console', port: 0 } as const;

/** The port of the console or of an area (its definition's `port` offset) on a fleet based at `base`. */
export function portOf(service: { port: number }, base: number): number {
  return base + service.port;
}
