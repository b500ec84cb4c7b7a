/**
 * The nine areas of the interface, one service and one base address each, in port order
 * (docs/architecture.md §2: agriculture on PORT_BASE + 1 ... archive on PORT_BASE + 9). Each is
 * also a platform application that emits the events of its resources (docs/architecture.md §5).
 */
export const AREAS = ['agriculture', 'tiles', 'insight', 'platform', 'model', 'observations', 'transfer', 'events', 'archive'] as const;

export type Area = (typeof AREAS)[number];
