/** What the page is told at /config.json: where each area answers, and the demo account if any. */
export interface ConsoleConfig {
  /** area name to base URL, e.g. agriculture -> http://127.0.0.1:8081 */
  areas: Record<string, string>;
  /** the embedded fleet's demo account, prefilled in the sign-in form (decision 0191) */
  demo: { applicationId: string; applicationKey: string } | null;
  /** the embedded fleet's demo archive user, whose token the archive takes in its query (docs/interface.md §11) */
  archive: { user: string; token: string } | null;
}

/**
 * The areas' base URLs in distributed mode (docs/architecture.md §2): FIELDCAST_<AREA>_URL when
 * set, else http://<area>:<port>, the name of the area's container or Service.
 */
export function areasFromEnv(names: readonly string[], env: NodeJS.ProcessEnv, portOf: (area: string) => number): Record<string, string> {
  const areas: Record<string, string> = {};
  for (const area of names) {
    const fromEnv = env[`FIELDCAST_${area.toUpperCase()}_URL`];
    areas[area] = (fromEnv ?? `http://${area}:${portOf(area)}`).replace(/\/+$/, '');
  }
  return areas;
}
