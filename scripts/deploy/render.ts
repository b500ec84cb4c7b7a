// The deployment files, rendered from the registry of areas (packages/fleet/src/services.ts): one
// Compose service and one kustomize file per area and for the web console, the topics CI
// creates before the services start, and the list of areas the packages below the fleet read. `pnpm generate` writes them; packages/fleet/test/deploy.test.ts
// fails when the committed files differ. Why generated rather than kustomize components:
// docs/decisions/0100-deploy-files-generated.md.
import {
  composePorts,
  CONTAINER_PORT,
  CONTAINER_SECURITY,
  GENERATED,
  HEALTH_PROBES,
  IMAGE,
  k8sNetworkPolicy,
  k8sPodDisruptionBudget,
  k8sService,
  METRICS_PORT,
  SCRAPES_METRICS,
  podSpread,
  POD_SECURITY,
  PRE_STOP,
  STARTUP_PROBE,
  type PortOf,
} from './common.js';
import { TOPIC_PARTITIONS } from '@fieldcast/bus';
import { COMPUTE_THREADS, podResources, SCALED_BY_CONSUMING } from './resources.js';
import { AREAS_MODULE, renderAreasModule } from './areas-module.js';
import { CONSOLE, renderComposeConsole, renderK8sConsole } from './console.js';

/** What the deployment needs to know about an area, read from its service definition. */
export interface DeployedArea {
  area: string;
  /** its port as an offset from PORT_BASE (the service definition's `port`) */
  port: number;
  /** topics the area publishes to (docs/architecture.md §5) */
  topics: readonly string[];
  /** whether it keeps files (a cache it makes downloads in) and signs links to them: it needs a writable data dir and a shared key */
  files: boolean;
  /** whether it reads weather: it mounts the synced stores' volume (docs/decisions/0252-sync-as-a-process.md) */
  weather: boolean;
}

/** Relative path to file content, in a stable order. */
type DeployFiles = Map<string, string>;

/** The writable data dir of an area that keeps files, in its container. */
const FILES_DIR = '/var/lib/fieldcast';

/** Where the synced stores' volume is mounted: written by `serve sync`, read by every area that reads weather. */
const SYNC_DIR = '/var/lib/fieldcast-sync';

/** The claim the cluster provides for the synced stores (ReadWriteMany: every area's replicas read it). */
const SYNC_CLAIM = 'fieldcast-synced';

/** The file cache of an area that keeps files (FIELDCAST_FILE_CACHE_MB) and its emptyDir's sizeLimit, a little over it, MiB. */
const FILE_CACHE_MIB = 3072;
const FILES_VOLUME_MIB = 4096;

/** The /tmp emptyDir of every area's pod, MiB. */
const TMP_MIB = 256;

/**
 * An area that keeps files asks its node for the ephemeral storage its volumes fill: the cache's
 * cap and /tmp, limited at their sizeLimits and room for its logs (Kubernetes, "Local ephemeral
 * storage"); unrequested, it may be scheduled on a node without room for the cache and evicted there.
 */
const FILES_STORAGE = { requestMi: FILE_CACHE_MIB + TMP_MIB, limitMi: FILES_VOLUME_MIB + TMP_MIB + 256 };

/** The Secret holding the key every replica signs and checks download links with. */
const SIGNING_SECRET = 'fieldcast-signing';

export function renderDeployFiles(areas: readonly DeployedArea[], portOf: PortOf): DeployFiles {
  const files: DeployFiles = new Map();
  files.set('docker-compose.yml', renderCompose(areas, portOf));
  files.set('k8s/base/kustomization.yaml', renderKustomization(areas));
  for (const area of areas) files.set(`k8s/base/${area.area}.yaml`, renderK8sArea(area));
  files.set(`k8s/base/${CONSOLE}.yaml`, renderK8sConsole(areas, portOf));
  files.set('k8s/base/sync.yaml', renderK8sSync());
  files.set('scripts/kafka/topics.txt', renderTopics(areas));
  files.set(AREAS_MODULE, renderAreasModule(areas));
  return files;
}

/** Files under k8s/base that are written by hand, so the generator neither writes nor removes them. */
export const HAND_WRITTEN_BASE = ['k8s/base/config.yaml'];

function renderCompose(areas: readonly DeployedArea[], portOf: PortOf): string {
  const services = areas
    .map(
      ({ area, files, weather }) => `  ${area}:
    <<: *service
    command: ["serve", "${area}"]
    ports: ${composePorts(portOf(area, CONTAINER_PORT))}
${composeVolumes(area, files, weather)}`,
    )
    .join('\n');
  const consoleService = renderComposeConsole(areas, portOf);
  return `# ${GENERATED}
#
# Distributed mode on one machine: PostgreSQL, a single-node Kafka (KRaft) and one container per
# service, all from the same image. \`docker compose up --build\`; the areas answer on the same
# ports as the embedded fleet (docs/architecture.md §2), and the web console on
# http://localhost:${portOf(CONSOLE, CONTAINER_PORT)}. Create an account with
#   docker compose run --rm agriculture accounts create --name Me
x-service: &service
  build: .
  image: fieldcast:latest
  read_only: true
  tmpfs: [/tmp]
  restart: unless-stopped
  # Docker's default is 10 s, SHUTDOWN_TIMEOUT_MS's too: room for the drain's last requests and
  # the outbox's last events before the container is killed.
  stop_grace_period: 20s
  environment: &environment
    DATABASE_URL: postgres://fieldcast:fieldcast@postgres:5432/fieldcast
    KAFKA_BROKERS: kafka:9092
    PORT: "${CONTAINER_PORT}"
    LOG_LEVEL: info
    FIELDCAST_SYNC_DIR: ${SYNC_DIR}
  depends_on:
    postgres: { condition: service_healthy }
    kafka: { condition: service_healthy }
  healthcheck:
    test: ["CMD", "node", "-e", "fetch('http://127.0.0.1:${CONTAINER_PORT}/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
    interval: 10s
    timeout: 3s
    retries: 5

services:
  postgres:
    image: postgres:15
    environment:
      POSTGRES_USER: fieldcast
      POSTGRES_PASSWORD: fieldcast
      POSTGRES_DB: fieldcast
    volumes: [pgdata:/var/lib/postgresql/data]
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U fieldcast"]
      interval: 5s
      retries: 20

  kafka:
    image: apache/kafka:3.9.1
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093
      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092
      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: 1
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: 1
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: 0
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: "false"
      KAFKA_NUM_PARTITIONS: ${TOPIC_PARTITIONS}
      KAFKA_LOG_DIRS: /var/lib/kafka/data
    volumes: [kafkadata:/var/lib/kafka/data]
    healthcheck:
      test: ["CMD-SHELL", "/opt/kafka/bin/kafka-topics.sh --bootstrap-server localhost:9092 --list"]
      interval: 5s
      retries: 30

${services}
${consoleService}
  # Model runs synced from FIELDCAST_SOURCE_<NAME>_URL into the synced volume every weather area
  # reads (docs/operations.md "Real data"); off unless asked for: \`docker compose --profile sync up\`.
  sync:
    <<: *service
    command: ["serve", "sync"]
    profiles: [sync]
    environment:
      <<: *environment
      FIELDCAST_SYNC_SOURCES: \${FIELDCAST_SYNC_SOURCES:-gfs-0p25}
    volumes: ["synced:${SYNC_DIR}"]

volumes:
  pgdata:
  kafkadata:
  synced:
${areas
  .filter((a) => a.files)
  .map((a) => `  ${a.area}-files:\n`)
  .join('')}`;
}

/**
 * An area that keeps files gets a volume for them; one replica here, so the signing key it keeps
 * in that data dir signs and checks every link (runtime files.ts). An area that computes in
 * threads gets its pod's count (resources.ts): every container sees every core of the one
 * machine, and the default, a thread per core but one, would start that many in each.
 */
function composeVolumes(area: string, files: boolean, weather: boolean): string {
  const volumes = [...(files ? [`"${area}-files:${FILES_DIR}"`] : []), ...(weather ? [`"synced:${SYNC_DIR}:ro"`] : [])];
  const variables = [
    ...(files ? [`FIELDCAST_DATA_DIR: ${FILES_DIR}`] : []),
    ...(area in COMPUTE_THREADS ? [`FIELDCAST_COMPUTE_THREADS: "${COMPUTE_THREADS[area]}"`] : []),
  ];
  const environment = variables.length ? `    environment:\n      <<: *environment\n${variables.map((v) => `      ${v}\n`).join('')}` : '';
  return `${environment}${volumes.length ? `    volumes: [${volumes.join(', ')}]\n` : ''}`;
}

function renderKustomization(areas: readonly DeployedArea[]): string {
  const resources = [
    ...HAND_WRITTEN_BASE.map((path) => path.slice('k8s/base/'.length)),
    ...areas.map(({ area }) => `${area}.yaml`),
    `${CONSOLE}.yaml`,
    'sync.yaml',
  ];
  return `# ${GENERATED}
#
# Kustomize base: one file per area and one for the web console (docs/architecture.md §9). Overlays set replicas, resources
# and the image tag. The cluster provides PostgreSQL and Kafka; their addresses come from the
# \`fieldcast\` ConfigMap (config.yaml) and the \`fieldcast-database\` Secret (key DATABASE_URL);
# areas that sign download links read the \`${SIGNING_SECRET}\` Secret (key FIELDCAST_SIGNING_KEY,
# at least 32 characters). Areas that read weather mount the \`${SYNC_CLAIM}\` PersistentVolumeClaim
# (ReadWriteMany) read-only: the synced stores sync.yaml writes (docs/decisions/0252-sync-as-a-process.md).
# Each pod answers /metrics on its \`metrics\` port (${METRICS_PORT}), which its NetworkPolicy opens only to
# pods in a namespace labelled ${SCRAPES_METRICS}=true: label the monitoring namespace so, e.g.
#   kubectl label namespace monitoring ${SCRAPES_METRICS}=true
# (docs/decisions/0449-metrics-on-a-port-of-their-own.md).
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
labels:
  - pairs:
      app.kubernetes.io/part-of: fieldcast
    includeSelectors: false
resources:
${resources.map((r) => `  - ${r}\n`).join('')}`;
}

/**
 * A Deployment of `fieldcast serve <name>` up to its container's `env:` list: its labels, the
 * scrape annotations (at the metrics port), the locked-down pod and the one image, configured by the fleet's ConfigMap.
 * `replicas` null leaves the count to an autoscaler: a count in the manifest would scale the
 * Deployment back to it on every apply (Kubernetes, Horizontal Pod Autoscaling, "Migrating
 * Deployments and StatefulSets to horizontal autoscaling").
 */
function k8sDeploymentHead(
  serve: string,
  labels: string,
  replicas: number | null,
  gracePeriodSeconds: number,
  initContainers = '',
): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${serve}
  labels: ${labels}
spec:
${replicas === null ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels: ${labels}
  template:
    metadata:
      labels: ${labels}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "${METRICS_PORT}"
        prometheus.io/path: /metrics
    spec:
      terminationGracePeriodSeconds: ${gracePeriodSeconds}
${podSpread(labels)}${POD_SECURITY}${initContainers}      containers:
        - name: ${serve}
          image: ${IMAGE}
          args: ["serve", "${serve}"]
          ports:
            - { name: http, containerPort: ${CONTAINER_PORT} }
            - { name: metrics, containerPort: ${METRICS_PORT} }
          envFrom:
            - configMapRef: { name: fieldcast }
          env:
            - name: FIELDCAST_METRICS_PORT
              value: "${METRICS_PORT}"
`;
}

/**
 * One area's Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget, locked down
 * as every pod of the fleet is (POD_SECURITY, CONTAINER_SECURITY).
 */
function renderK8sArea({ area, files, weather }: DeployedArea): string {
  const bound = SCALED_BY_CONSUMING.includes(area);
  const name = `{ app.kubernetes.io/name: ${area} }`;
  return `# ${GENERATED}
${k8sDeploymentHead(area, name, null, 30, k8sMigrate(area, files))}            - name: KAFKA_CLIENT_ID
              valueFrom: { fieldRef: { fieldPath: metadata.name } }
${DATABASE_URL_ENV}${files ? k8sFilesEnv : ''}${weather ? k8sSyncDirEnv : ''}${area in COMPUTE_THREADS ? computeThreadsEnv(area) : ''}${HEALTH_PROBES}${STARTUP_PROBE}${PRE_STOP}${podResources(area, files ? FILES_STORAGE : undefined)}${CONTAINER_SECURITY}          volumeMounts:
            - { name: tmp, mountPath: /tmp }
${files ? `            - { name: files, mountPath: ${FILES_DIR} }\n` : ''}${weather ? `            - { name: synced, mountPath: ${SYNC_DIR}, readOnly: true }\n` : ''}      volumes:
        - name: tmp
          emptyDir: { sizeLimit: ${TMP_MIB}Mi }
${files ? `        - name: files\n          emptyDir: { sizeLimit: ${FILES_VOLUME_MIB}Mi }\n` : ''}${weather ? `        - name: synced\n          persistentVolumeClaim: { claimName: ${SYNC_CLAIM}, readOnly: true }\n` : ''}---
${k8sService(area, name)}---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${area}
  labels: ${bound ? `{ app.kubernetes.io/name: ${area}, ${PARTITION_BOUND}: "true" }` : name}
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: ${area} }
  minReplicas: 2
  maxReplicas: ${bound ? TOPIC_PARTITIONS : 10}
  metrics:
    - type: Resource
      resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } }
---
${k8sPodDisruptionBudget(area, name)}---
${k8sNetworkPolicy(area, name)}`;
}

/** The database every area and the sync poller reach, from its Secret. */
const DATABASE_URL_ENV = `            - name: DATABASE_URL
              valueFrom: { secretKeyRef: { name: fieldcast-database, key: DATABASE_URL } }
`;

/**
 * `fieldcast migrate <area>` before the service starts. The service migrates on start too, but
 * its listener opens only after, and the startup probe gives it 120 s: a longer migration would be
 * killed, rolled back and begun again by every restart. An init container is probed by nothing,
 * so the migration runs to its end, replicas taking turns under its advisory lock
 * (packages/db migrations.ts); the service's own then finds nothing to do.
 */
const k8sMigrate = (area: string, files: boolean) => `      initContainers:
        - name: migrate
          image: ${IMAGE}
          args: ["migrate", "${area}"]
          envFrom:
            - configMapRef: { name: fieldcast }
          env:
${DATABASE_URL_ENV}${podResources(area, files ? FILES_STORAGE : undefined)}${CONTAINER_SECURITY}          volumeMounts:
            - { name: tmp, mountPath: /tmp }
`;

/**
 * Every replica of an area that signs links must check the others' signatures, so the key comes
 * from one Secret rather than each pod's data dir; the files are a per-pod cache (an emptyDir a
 * little over FIELDCAST_FILE_CACHE_MB), remade on another pod when missing.
 */
const k8sFilesEnv = `            - name: FIELDCAST_DATA_DIR
              value: ${FILES_DIR}
            - name: FIELDCAST_FILE_CACHE_MB
              value: "${FILE_CACHE_MIB}"
            - name: FIELDCAST_SIGNING_KEY
              valueFrom: { secretKeyRef: { name: ${SIGNING_SECRET}, key: FIELDCAST_SIGNING_KEY } }
`;

/** Its compute threads, not one per core of the node (resources.ts). */
const computeThreadsEnv = (area: string) => `            - name: FIELDCAST_COMPUTE_THREADS
              value: "${COMPUTE_THREADS[area]}"
`;

/**
 * The label of an autoscaler whose maximum is the partitions of a topic (a consumer's): overlays
 * that raise maxReplicas leave these alone (k8s/overlays/prod).
 */
const PARTITION_BOUND = 'fieldcast.io/replicas-bound-by-partitions';

const k8sSyncDirEnv = `            - name: FIELDCAST_SYNC_DIR
              value: ${SYNC_DIR}
`;

/**
 * \`fieldcast serve sync\` writing the synced stores to the claim every weather area reads. No
 * replicas in the base, so nothing is fetched unless asked for: an overlay sets
 * FIELDCAST_SYNC_SOURCES (the ConfigMap or here) and replicas; any number share the work under
 * PostgreSQL advisory locks (docs/decisions/0252-sync-as-a-process.md).
 */
function renderK8sSync(): string {
  const name = '{ app.kubernetes.io/name: sync }';
  return `# ${GENERATED}
${k8sDeploymentHead('sync', name, 0, 60)}${DATABASE_URL_ENV}${k8sSyncDirEnv}${HEALTH_PROBES}${STARTUP_PROBE}${PRE_STOP}${podResources('sync')}${CONTAINER_SECURITY}          volumeMounts:
            - { name: tmp, mountPath: /tmp }
            - { name: synced, mountPath: ${SYNC_DIR} }
      volumes:
        - name: tmp
          emptyDir: { sizeLimit: 256Mi }
        - name: synced
          persistentVolumeClaim: { claimName: ${SYNC_CLAIM} }
---
${k8sNetworkPolicy('sync', name)}`;
}

function renderTopics(areas: readonly DeployedArea[]): string {
  const topics = [...new Set(areas.flatMap((a) => a.topics))];
  return `# ${GENERATED}
#
# Resource topics created before the services start (docs/architecture.md §5); services also
# create their own topics, and the events service picks up any new fieldcast.<area>.<resource> topic.
${topics.map((t) => `${t}\n`).join('')}`;
}
