/** What the page is told at /config.json: where each area answers, and the demo account if any. */
export interface ConsoleConfig {
  /** area name to base URL, e.g. agriculture -> http://127.0.0.1:8081 */
  areas: Record<string, string>;
  /** the embedded fleet's demo account, prefilled in the sign-in form (decision 0191) */
  demo: { applicationId: string; applicationKey: string } | null;
  /** the embedded fleet's demo archive user, whose token the archive takes in its query (docs/interface.md §11) */
  archive: { user: string; token: string } | null;
}

/** FIELDCAST_<AREA>_URL values that are no http(s) URL, each named: the caller stops start-up with them. */
export class AreaUrlError extends Error {
  override name = 'AreaUrlError';
}

/**
 * The areas' base URLs in distributed mode (docs/architecture.md §2): FIELDCAST_<AREA>_URL when
 * set (trimmed; blank is unset, as every variable), else http://<area>:<port>, the name of the
 * area's container or Service. A value that is no http(s) URL is refused, naming each, rather
 * than handed to every browser as an address it cannot call (docs/operations.md "Environment").
 */
export function areasFromEnv(names: readonly string[], env: NodeJS.ProcessEnv, portOf: (area: string) => number): Record<string, string> {
  const areas: Record<string, string> = {};
  const bad: string[] = [];
  for (const area of names) {
    const name = `FIELDCAST_${area.toUpperCase()}_URL`;
    const fromEnv = env[name]?.trim() || undefined;
    if (fromEnv !== undefined && !(URL.canParse(fromEnv) && /^https?:$/.test(new URL(fromEnv).protocol)))
      bad.push(`  ${name}: must be an http(s) URL such as https://${area}.example.com`);
    areas[area] = (fromEnv ?? `http://${area}:${portOf(area)}`).replace(/\/+$/, '');
  }
  if (bad.length > 0) throw new AreaUrlError(`Invalid environment:\n${bad.join('\n')}`);
  return areas;
}
