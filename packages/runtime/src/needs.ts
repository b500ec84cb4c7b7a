import type { IncomingMessage } from '@fieldcast/bus';
import type { Database, Migration, Outbox } from '@fieldcast/db';
import type { HttpDeps, ServiceDefinition } from '@fieldcast/kit';
import type { Catalog, GridSource } from '@fieldcast/weather';
import type { BackgroundTask } from './background.js';
import type { ServiceFiles } from './files.js';
import type { AreaWorker } from './workers/worker-module.js';

/**
 * What a service may ask the runtime for (docs/architecture.md §1). The runtime hands a service
 * the dependency of each need it declares and no other, so the events service, which declares
 * no weather, never opens a weather store, and a service without an outbox or consumers runs
 * without a message broker.
 */
export interface Needs {
  /** its own schema, named after the area, migrated at start with these migrations: gives `db` */
  database?: { migrations: readonly Migration[] };
  /**
   * an outbox in its schema whose relay publishes to these topics, created at start
   * (docs/architecture.md §5): gives `outbox`
   */
  outbox?: { topics: readonly string[] };
  /**
   * gridded weather (docs/architecture.md §6): gives `weather`, and `computeThreads`, the worker
   * threads the service may run its heavy computation on (docs/decisions/0051-heavy-work-in-worker-threads.md)
   */
  weather?: true;
  /**
   * the catalog of products, models and transfer products (docs/architecture.md §6), loaded
   * once per process with its YAML override (FIELDCAST_CATALOG): gives `catalog`
   */
  catalog?: true;
  /**
   * worker threads for heavy computation that reads no gridded weather (the archive's severe
   * weather is drawn from the synthetic world's own generator): gives `computeThreads` alone
   * (docs/decisions/0051-heavy-work-in-worker-threads.md)
   */
  compute?: true;
  /**
   * files of its own (caches of what it produces) in a directory under the data dir, at most
   * FIELDCAST_FILE_CACHE_MB of them, and the key it signs URLs with: gives `files`
   */
  files?: true;
  /**
   * outbound webhook requests (docs/decisions/0261-webhook-address-guard.md): gives `webhooks`,
   * the addresses they may reach besides public ones
   */
  webhooks?: true;
}

/** Where webhook requests may go: public addresses, and of the private ranges only those named. */
export interface WebhookPolicy {
  /** addresses and CIDR ranges (FIELDCAST_WEBHOOK_ALLOW_PRIVATE) */
  allowPrivate: readonly string[];
  /** false in test fleets: a test reaches only what it names, never a real server */
  allowPublic: boolean;
}

/** The dependencies of a service that declared `N`: the HTTP ones, plus one per declared need. */
export type DepsOf<N extends Needs> = HttpDeps &
  (N extends { database: object } ? { db: Database } : unknown) &
  (N extends { outbox: object } ? { outbox: Outbox } : unknown) &
  (N extends { weather: true } ? { weather: GridSource; computeThreads: number } : unknown) &
  (N extends { catalog: true } ? { catalog: Catalog } : unknown) &
  (N extends { compute: true } ? { computeThreads: number } : unknown) &
  (N extends { files: true } ? { files: ServiceFiles } : unknown) &
  (N extends { webhooks: true } ? { webhooks: WebhookPolicy } : unknown);

/** Whatever a service may have been given; what one service actually has is `DepsOf` its needs. */
export type AnyDeps = HttpDeps & {
  db?: Database;
  outbox?: Outbox;
  weather?: GridSource;
  catalog?: Catalog;
  computeThreads?: number;
  files?: ServiceFiles;
  webhooks?: WebhookPolicy;
};

/**
 * Consumes the topics matching `topics` in consumer group `group`; a throw redelivers the message.
 * `handle` may say what became of a message (`stored`, `duplicate`, `dead_lettered`): the runtime
 * counts each outcome per group in /metrics (fieldcast_consumer_messages_total), `handled` when
 * it says nothing.
 */
export interface Consumer {
  group: string;
  topics: RegExp;
  handle(message: IncomingMessage): Promise<void | string>;
  /** ends work its handler started and did not await (a dispatcher's sends), after its subscription stops */
  stop?(): Promise<void>;
}

/** A service as the runtime starts it: the kit's definition with the runtime's needs. */
export interface Service<N extends Needs = Needs> extends ServiceDefinition<N, DepsOf<N>> {
  /**
   * Its port as an offset from PORT_BASE (docs/architecture.md §2; the console has 0): the
   * embedded fleet, `fieldcast serve`, the deployment files and the client's base URLs all read
   * it here. The registry (packages/fleet/src/services.ts) keeps offsets distinct.
   */
  port: number;
  /**
   * Its thread modules, `src/<name>.ts` in its folder, that scripts/build.ts bundles beside
   * cli.js (workers/worker-module.ts, docs/decisions/0051-heavy-work-in-worker-threads.md).
   */
  workers?: readonly AreaWorker[];
  /**
   * Its message consumers, built from its dependencies. Declaring any is the need for a
   * transport's subscriptions; the runtime subscribes them after the service's schema is
   * migrated and stops them before it closes the database.
   */
  consumers?(deps: DepsOf<N>): Consumer[];
  /**
   * Its clock-driven work (docs/decisions/0180-background-tasks.md), built from its dependencies.
   * The runtime starts the tasks after the service's schema is migrated and its outbox relay
   * runs, and stops them (awaiting the pass under way) before the relay and the database; `api`
   * only builds routes.
   */
  background?(deps: DepsOf<N>): BackgroundTask[];
}

/** Types a service's dependencies from its declared needs: reading one it did not declare fails to compile. */
export function defineService<const N extends Needs>(service: Service<N>): Service<N> {
  return service;
}

/** A service publishes (outbox) or consumes, so it needs the transport. */
export function needsTransport(service: Service): boolean {
  return service.needs.outbox !== undefined || service.consumers !== undefined;
}

/** The topics a service publishes to, created up front. */
export function topicsOf(service: Service): readonly string[] {
  return service.needs.outbox?.topics ?? [];
}
