import { isUuid } from '@fieldcast/ids';
import type { Identity } from '@fieldcast/kit';
import { areaAppId, PLATFORM_APP_IDS, PLATFORM_APPS } from './domain/apps.js';
import type { EventStore } from './store.js';

/** Applications never disappear or change id, so a found one can be remembered; like the auth cache, for a while only. */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
/** Platform application ids by area name, computed once (a UUID v5 is a SHA-1). */
const PLATFORM_APP_BY_NAME: ReadonlyMap<string, string> = new Map(PLATFORM_APPS.map((a) => [a, areaAppId(a)]));

/**
 * Resolves `/apps/{app-uuid-or-handle}` (spec 4.10) to an application id. In order: a platform
 * application by area name or id, an account by handle or id, then an area seen only in stored
 * events (a topic created after this release). Unknown: null.
 */
export class AppDirectory {
  private readonly cache = new Map<string, { appId: string; expires: number }>();

  constructor(
    private readonly identity: Identity,
    private readonly store: EventStore,
  ) {}

  async resolve(ref: string): Promise<string | null> {
    const name = ref.toLowerCase();
    if (PLATFORM_APP_IDS.has(name)) return name;
    const platform = PLATFORM_APP_BY_NAME.get(name);
    if (platform) return platform;
    const now = Date.now();
    const hit = this.cache.get(name);
    if (hit && hit.expires > now) return hit.appId;
    const appId = (await this.identity.findAccount(name))?.id ?? (await this.fromEvents(name));
    if (appId) {
      if (this.cache.size >= CACHE_MAX) this.cache.clear();
      this.cache.set(name, { appId, expires: now + CACHE_TTL_MS });
    }
    return appId;
  }

  private async fromEvents(name: string): Promise<string | null> {
    const appId = isUuid(name) ? name : areaAppId(name);
    return (await this.store.hasApp(appId)) ? appId : null;
  }
}
