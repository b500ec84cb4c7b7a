import { AREA_PORTS } from '@fieldcast/ids/areas';

/**
 * The console's place in the port table (docs/architecture.md §2): it listens on PORT_BASE itself,
 * each area on PORT_BASE plus the `port` offset its service definition declares.
 */
export const CONSOLE = { area: 'console', port: 0 } as const;

/**
 * `serve sync`'s place when PORT is unset: the offset after the last area's, so on a machine that
 * runs a fleet at the same PORT_BASE it takes no area's port.
 */
export const SYNC = { area: 'sync', port: Math.max(...Object.values(AREA_PORTS)) + 1 } as const;

/** The port of the console or of an area (its definition's `port` offset) on a fleet based at `base`. */
export function portOf(service: { port: number }, base: number): number {
  return base + service.port;
}
