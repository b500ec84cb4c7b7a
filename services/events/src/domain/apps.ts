import { AREAS, fieldcastId } from '@fieldcast/ids';

/**
 * The platform's own applications: one per area, named after it (docs/architecture.md §7). They emit
 * the events consumed from resource topics. Their names take precedence over account handles
 * in `/apps/{handle}`, so no account can shadow a platform application's feed.
 */
export const PLATFORM_APPS: readonly string[] = AREAS;

/**
 * Every application has a UUID (spec 4.10 `/apps/{app-uuid-or-handle}`): an account's is the
 * account id; an area's is UUID v5 of `app:<area>`, so every replica computes the same one
 * (docs/architecture.md §3).
 */
export function areaAppId(area: string): string {
  return fieldcastId('app', area);
}

export const PLATFORM_APP_IDS: ReadonlyMap<string, string> = new Map(PLATFORM_APPS.map((a) => [areaAppId(a), a]));
