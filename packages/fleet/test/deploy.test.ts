import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { areasFromEnv } from '@fieldcast/console';
import { AREAS } from '@fieldcast/ids/areas';
import { FleetEnv, needsTransport, parseEnv } from '@fieldcast/runtime';
import { DEPLOYED_AREAS, portOf } from '../../../scripts/deploy/areas.js';
import { CONTAINER_PORT, IMAGE } from '../../../scripts/deploy/common.js';
import { CONSOLE } from '../../../scripts/deploy/console.js';
import { HAND_WRITTEN_BASE, renderDeployFiles } from '../../../scripts/deploy/render.js';
import { COMPUTE_THREADS } from '../../../scripts/deploy/resources.js';
import { SERVICES } from '../src/services.js';

// No container engine runs here, so these tests keep the deployment files in step with the
// services the CLI knows: every service deployed, probed, limited, scalable and locked down.
// tests/integration/deploy.int.test.ts renders the overlays and checks them against the schemas.
const root = process.cwd();
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('generated deployment files', () => {
  const files = renderDeployFiles(DEPLOYED_AREAS, portOf);
  it.each([...files.keys()])('%s is what `pnpm generate` writes from the registry of areas', (path) => {
    expect(read(path)).toBe(files.get(path));
  });

  it('k8s/base holds no file for an area the registry no longer has', () => {
    const onDisk = readdirSync(join(root, 'k8s/base')).map((name) => `k8s/base/${name}`);
    expect(onDisk.filter((path) => !files.has(path) && !HAND_WRITTEN_BASE.includes(path))).toEqual([]);
  });

  it('pre-creates every topic an area publishes to', () => {
    const topics = read('scripts/kafka/topics.txt')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    expect(topics.sort()).toEqual([...new Set(DEPLOYED_AREAS.flatMap((a) => a.topics))].sort());
  });
});

describe('docker-compose.yml', () => {
  // merge: true resolves the `<<: *service` keys the way Compose does
  const compose = parse(read('docker-compose.yml'), { merge: true });
  it.each(DEPLOYED_AREAS.map((a) => a.area))('runs %s from the one image, read-only, on its fleet port', (area) => {
    const service = compose.services[area];
    expect(service.command).toEqual(['serve', area]);
    expect(service.read_only).toBe(true);
    expect(service.environment.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(service.environment.KAFKA_BROKERS).toBeTruthy();
    // published on the machine's loopback alone (docs/decisions/0449-metrics-on-a-port-of-their-own.md)
    expect(service.ports).toEqual([`127.0.0.1:${portOf(area, 8080)}:8080`]);
  });

  it('gives an area that keeps files a named volume for its data dir, one that reads weather the synced stores read-only, and no other area one', () => {
    for (const { area, files, weather } of DEPLOYED_AREAS) {
      const service = compose.services[area];
      const synced = `synced:${service.environment.FIELDCAST_SYNC_DIR}:ro`;
      if (files) {
        expect(service.environment.DATABASE_URL).toMatch(/^postgres:\/\//);
        expect(Object.keys(compose.volumes)).toContain(`${area}-files`);
      }
      const expected = [...(files ? [`${area}-files:${service.environment.FIELDCAST_DATA_DIR}`] : []), ...(weather ? [synced] : [])];
      expect(service.volumes).toEqual(expected.length ? expected : undefined);
    }
    expect(DEPLOYED_AREAS.some((a) => a.files)).toBe(true);
    expect(DEPLOYED_AREAS.some((a) => a.weather)).toBe(true);
  });

  it('syncs into the synced volume only when asked for (profile sync), as serve sync', () => {
    const sync = compose.services.sync;
    expect(sync.command).toEqual(['serve', 'sync']);
    expect(sync.profiles).toEqual(['sync']);
    expect(sync.volumes).toEqual([`synced:${sync.environment.FIELDCAST_SYNC_DIR}`]);
    expect(sync.environment.DATABASE_URL).toMatch(/^postgres:\/\//);
  });
});

// The web console (decision 0195), checked in what the generator renders: no database or broker,
// and each area's URL the address a browser reaches it at.
describe('the console in the rendered deployment files', () => {
  const files = renderDeployFiles(DEPLOYED_AREAS, portOf);
  const variable = (area: string) => `FIELDCAST_${area.toUpperCase()}_URL`;

  it('Compose runs it from the one image on PORT_BASE, pointed at the ports the areas are published on', () => {
    const compose = parse(files.get('docker-compose.yml')!, { merge: true });
    const service = compose.services.console;
    expect(service.command).toEqual(['serve', 'console']);
    expect(service.image).toBe(compose.services.agriculture.image);
    expect(service.read_only).toBe(true);
    expect(service.ports).toEqual(['127.0.0.1:8080:8080']);
    expect(service.environment.DATABASE_URL).toBeUndefined();
    expect(service.environment.KAFKA_BROKERS).toBeUndefined();
    for (const { area } of DEPLOYED_AREAS) {
      const published = compose.services[area].ports[0].split(':').at(-2);
      expect(service.environment[variable(area)]).toBe(`http://localhost:${published}`);
    }
    expect(service.depends_on).toEqual(DEPLOYED_AREAS.map((a) => a.area));
  });

  it('the k8s base has its ConfigMap of area URLs, a locked-down Deployment, a Service and a PDB', () => {
    expect(parse(files.get('k8s/base/kustomization.yaml')!).resources).toContain('console.yaml');
    const docs = parseAllDocuments(files.get('k8s/base/console.yaml')!).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual(['ConfigMap', 'Deployment', 'Service', 'PodDisruptionBudget']);
    const [config, deployment] = docs;
    expect(Object.keys(config.data).sort()).toEqual(DEPLOYED_AREAS.map((a) => variable(a.area)).sort());
    for (const { area } of DEPLOYED_AREAS) expect(config.data[variable(area)]).toBe(`http://localhost:${portOf(area, 8080)}`);
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.args).toEqual(['serve', 'console']);
    expect(container.envFrom).toContainEqual({ configMapRef: { name: config.metadata.name } });
    expect(container.env).toBeUndefined(); // no database URL, no Kafka client id
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.resources.limits.memory).toBeDefined();
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.topologySpreadConstraints[0].labelSelector).toEqual(deployment.spec.selector);
    expect(docs[2].spec.selector).toEqual(deployment.spec.selector.matchLabels);
  });
});

describe('k8s base', () => {
  const kustomization = parse(read('k8s/base/kustomization.yaml'));
  it.each(DEPLOYED_AREAS.map((a) => a.area))('%s: Deployment with probes and limits, Service, HPA and PDB', (area) => {
    expect(kustomization.resources).toContain(`${area}.yaml`);
    const docs = parseAllDocuments(read(`k8s/base/${area}.yaml`)).map((d) => d.toJS());
    const kinds = docs.map((d) => d.kind);
    expect(kinds).toEqual(['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy']);
    const pod = docs[0].spec.template.spec;
    const container = pod.containers[0];
    expect(container.args).toEqual(['serve', area]);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(docs[2].spec.scaleTargetRef.name).toBe(area);
    // the autoscaler owns the count: replicas in the manifest would scale the area back to it on
    // every apply (Kubernetes, Horizontal Pod Autoscaling, "Migrating Deployments and StatefulSets to horizontal autoscaling")
    expect(docs[0].spec).not.toHaveProperty('replicas');
    // replicas spread over zones and nodes, softly (Kubernetes, Pod Topology Spread Constraints)
    expect(pod.topologySpreadConstraints).toEqual(
      ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'].map((topologyKey) =>
        expect.objectContaining({ topologyKey, maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: docs[0].spec.selector }),
      ),
    );
  });

  // A zone lost takes the pods scheduled in it: with every replica in one zone, the area with them.
  it('spreads the console and the sync poller over zones as the areas are', () => {
    for (const name of ['console', 'sync']) {
      const deployment = parseAllDocuments(read(`k8s/base/${name}.yaml`))
        .map((d) => d.toJS())
        .find((d) => d.kind === 'Deployment');
      const keys = deployment.spec.template.spec.topologySpreadConstraints.map((c: { topologyKey: string }) => c.topologyKey);
      expect([name, keys]).toEqual([name, ['topology.kubernetes.io/zone', 'kubernetes.io/hostname']]);
    }
  });

  // Replicas behind one Service check each other's signed links: one key for all, from a Secret.
  it.each(DEPLOYED_AREAS.filter((a) => a.files).map((a) => a.area))(
    '%s signs with the Secret key and writes files to its own volume',
    (area) => {
      const pod = parseAllDocuments(read(`k8s/base/${area}.yaml`))[0]!.toJS().spec.template.spec;
      const env = Object.fromEntries(pod.containers[0].env.map((e: { name: string }) => [e.name, e]));
      expect(env.FIELDCAST_SIGNING_KEY.valueFrom.secretKeyRef).toEqual({ name: 'fieldcast-signing', key: 'FIELDCAST_SIGNING_KEY' });
      const mount = pod.containers[0].volumeMounts.find((m: { mountPath: string }) => m.mountPath === env.FIELDCAST_DATA_DIR.value);
      expect(pod.volumes.find((v: { name: string }) => v.name === mount.name).emptyDir.sizeLimit).toBeDefined();
    },
  );

  it.each(DEPLOYED_AREAS.filter((a) => a.weather).map((a) => a.area))(
    '%s reads the synced stores from the shared claim, read-only',
    (area) => {
      const pod = parseAllDocuments(read(`k8s/base/${area}.yaml`))[0]!.toJS().spec.template.spec;
      const env = Object.fromEntries(pod.containers[0].env.map((e: { name: string; value?: string }) => [e.name, e.value]));
      const mount = pod.containers[0].volumeMounts.find((m: { mountPath: string }) => m.mountPath === env.FIELDCAST_SYNC_DIR);
      expect(mount.readOnly).toBe(true);
      expect(pod.volumes.find((v: { name: string }) => v.name === mount.name).persistentVolumeClaim).toEqual({
        claimName: 'fieldcast-synced',
        readOnly: true,
      });
    },
  );

  it('runs serve sync on the same claim, writable, with no replicas until an overlay asks', () => {
    expect(kustomization.resources).toContain('sync.yaml');
    const [deployment] = parseAllDocuments(read('k8s/base/sync.yaml')).map((d) => d.toJS());
    expect(deployment.spec.replicas).toBe(0);
    const pod = deployment.spec.template.spec;
    expect(pod.containers[0].args).toEqual(['serve', 'sync']);
    const mount = pod.containers[0].volumeMounts.find((m: { name: string }) => m.name === 'synced');
    expect(mount.readOnly).toBeUndefined();
    expect(pod.volumes.find((v: { name: string }) => v.name === 'synced').persistentVolumeClaim).toEqual({ claimName: 'fieldcast-synced' });
  });

  // serve sync migrates the model area's schema (under its advisory lock, which a model pod's
  // migration may hold) before it listens: the liveness probe alone would restart it after 40 s.
  it('gives serve sync the startup probe the areas have, since it migrates before it listens', () => {
    const containerOf = (name: string) =>
      parseAllDocuments(read(`k8s/base/${name}.yaml`))
        .map((d) => d.toJS())
        .find((d) => d.kind === 'Deployment').spec.template.spec.containers[0];
    expect(containerOf('sync').startupProbe).toEqual(containerOf('model').startupProbe);
    expect(containerOf('model').startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
  });

  it('has dev and prod overlays over the base, each creating the namespace it puts the base in', () => {
    for (const overlay of ['dev', 'prod']) {
      expect(existsSync(join(root, `k8s/overlays/${overlay}/kustomization.yaml`))).toBe(true);
      const kustomization = parse(read(`k8s/overlays/${overlay}/kustomization.yaml`));
      expect(kustomization.resources).toEqual(['namespace.yaml', '../../base']);
      const namespace = parse(read(`k8s/overlays/${overlay}/namespace.yaml`));
      expect([namespace.kind, namespace.metadata.name]).toEqual(['Namespace', kustomization.namespace]);
    }
  });

  // Only an area with worker threads (its service's `workers`) starts any: another's
  // FIELDCAST_COMPUTE_THREADS is read by nothing, and a core of CPU limit for threads it never starts
  // is not the derivation of scripts/deploy/resources.ts.
  it('sets compute threads for exactly the areas that compute in worker threads', () => {
    const threaded = SERVICES.filter((s) => (s.workers ?? []).length > 0).map((s) => s.area);
    expect(Object.keys(COMPUTE_THREADS).sort()).toEqual([...threaded].sort());
  });

  // A pod sees its node's cores: without a number, an area would start a compute thread per node core.
  it.each(Object.keys(COMPUTE_THREADS))('%s computes on the threads its resources were measured with', (area) => {
    const container = parseAllDocuments(read(`k8s/base/${area}.yaml`))[0]!.toJS().spec.template.spec.containers[0];
    const env = Object.fromEntries(container.env.map((e: { name: string; value?: string }) => [e.name, e.value]));
    expect(env.FIELDCAST_COMPUTE_THREADS).toBe(String(COMPUTE_THREADS[area]));
    expect(container.resources.limits.cpu).toBe(String(1 + COMPUTE_THREADS[area]!));
  });

  // Compose runs every area on one machine: each computing on a thread per core of it would start
  // five times the machine's cores in threads, each with a heap of its own.
  it('Compose gives each area the compute threads its pod has, and no other area any', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true });
    for (const { area } of DEPLOYED_AREAS) {
      const threads = compose.services[area].environment.FIELDCAST_COMPUTE_THREADS;
      expect([area, threads]).toEqual([area, area in COMPUTE_THREADS ? String(COMPUTE_THREADS[area]) : undefined]);
    }
  });

  // The pods never call the Kubernetes API, so none holds a token for it (Kubernetes, "Configure
  // Service Accounts for Pods": opting out of API credential automounting).
  it('mounts no service account token in any pod', () => {
    for (const path of [...DEPLOYED_AREAS.map((a) => `k8s/base/${a.area}.yaml`), 'k8s/base/console.yaml', 'k8s/base/sync.yaml']) {
      const deployment = parseAllDocuments(read(path))
        .map((d) => d.toJS())
        .find((d) => d.kind === 'Deployment');
      expect([path, deployment.spec.template.spec.automountServiceAccountToken]).toEqual([path, false]);
    }
  });

  // A budget of pods that may be down, not of pods that must stay up: one pod of twenty scaled out
  // for load may go at a time, where a minimum of one would let drains of several nodes take nineteen.
  it('lets a voluntary disruption take one pod of an area or the console at a time, however many there are', () => {
    for (const name of [...DEPLOYED_AREAS.map((a) => a.area), 'console']) {
      const budget = parseAllDocuments(read(`k8s/base/${name}.yaml`))
        .map((d) => d.toJS())
        .find((d) => d.kind === 'PodDisruptionBudget');
      expect([name, budget.spec]).toEqual([name, { maxUnavailable: 1, selector: { matchLabels: { 'app.kubernetes.io/name': name } } }]);
    }
  });

  // The listener opens after the service's migrations, and the startup probe gives a pod 120 s to
  // open it: a longer migration would be killed at 120 s, rolled back, and begun again for ever. An
  // init container has no probe, so the migration runs to its end; the service's own then finds nothing to do.
  it.each(DEPLOYED_AREAS.map((a) => a.area))('%s migrates its schema in an init container, before the probed one starts', (area) => {
    const pod = parseAllDocuments(read(`k8s/base/${area}.yaml`))[0]!.toJS().spec.template.spec;
    const [container] = pod.containers;
    expect(pod.initContainers).toHaveLength(1);
    const [init] = pod.initContainers;
    expect(init.args).toEqual(['migrate', area]);
    expect(init.image).toBe(container.image);
    expect(init.envFrom).toEqual(container.envFrom);
    expect(init.env).toEqual([container.env.find((e: { name: string }) => e.name === 'DATABASE_URL')]);
    expect(init.securityContext).toEqual(container.securityContext);
    expect(init.resources).toEqual(container.resources);
    expect(init).not.toHaveProperty('startupProbe');
    expect(init).not.toHaveProperty('livenessProbe');
  });

  // docs/decisions/0449-metrics-on-a-port-of-their-own.md: a NetworkPolicy filters ports, not
  // paths, so /metrics is on a port of its own, reachable only from a namespace labelled for monitoring.
  it.each([...DEPLOYED_AREAS.map((a) => a.area), 'sync'])(
    '%s answers /metrics on a port of its own, scraped there, which only monitoring namespaces reach',
    (name) => {
      const docs = parseAllDocuments(read(`k8s/base/${name}.yaml`)).map((d) => d.toJS());
      const deployment = docs.find((d) => d.kind === 'Deployment');
      const container = deployment.spec.template.spec.containers[0];
      const metrics = container.ports.find((p: { name: string }) => p.name === 'metrics');
      const http = container.ports.find((p: { name: string }) => p.name === 'http');
      expect(metrics.containerPort).not.toBe(http.containerPort);
      const env = Object.fromEntries(container.env.map((e: { name: string; value?: string }) => [e.name, e.value]));
      expect(env.FIELDCAST_METRICS_PORT).toBe(String(metrics.containerPort));
      expect(deployment.spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/port': String(metrics.containerPort),
        'prometheus.io/path': '/metrics',
      });
      const policy = docs.find((d) => d.kind === 'NetworkPolicy');
      expect(policy.spec.podSelector).toEqual(deployment.spec.selector);
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      expect(policy.spec.ingress).toEqual([
        { ports: [{ port: 'http', protocol: 'TCP' }] },
        {
          ports: [{ port: 'metrics', protocol: 'TCP' }],
          from: [{ namespaceSelector: { matchLabels: { 'fieldcast.io/scrapes-metrics': 'true' } } }],
        },
      ]);
      // the Service exposes the API only
      const service = docs.find((d) => d.kind === 'Service');
      if (service) expect(service.spec.ports.map((p: { targetPort: string }) => p.targetPort)).toEqual(['http']);
    },
  );

  // /readyz waits for a database connection: the 1 s default would take a busy pod out of its Service.
  it('gives every probe a timeout longer than the default 1 s, and under its period', () => {
    for (const path of [...DEPLOYED_AREAS.map((a) => `k8s/base/${a.area}.yaml`), 'k8s/base/console.yaml', 'k8s/base/sync.yaml']) {
      const container = parseAllDocuments(read(path))
        .map((d) => d.toJS())
        .find((d) => d.kind === 'Deployment').spec.template.spec.containers[0];
      for (const probe of [container.readinessProbe, container.livenessProbe]) {
        expect([path, probe.timeoutSeconds > 1, probe.timeoutSeconds < probe.periodSeconds]).toEqual([path, true, true]);
      }
    }
  });

  // A pod's emptyDir counts against its node's ephemeral storage: unrequested, the scheduler places
  // it on a node without room for the file cache, and the kubelet evicts it there.
  it.each(DEPLOYED_AREAS.filter((a) => a.files).map((a) => a.area))('%s requests the ephemeral storage its file cache fills', (area) => {
    const pod = parseAllDocuments(read(`k8s/base/${area}.yaml`))[0]!.toJS().spec.template.spec;
    const mib = (size: string) => (size.endsWith('Gi') ? Number(size.slice(0, -2)) * 1024 : Number(size.replace(/Mi$/, '')));
    const files = mib(pod.volumes.find((v: { name: string }) => v.name === 'files').emptyDir.sizeLimit);
    const { requests, limits } = pod.containers[0].resources;
    const env = Object.fromEntries(pod.containers[0].env.map((e: { name: string; value?: string }) => [e.name, e.value]));
    expect(mib(requests['ephemeral-storage'])).toBeGreaterThanOrEqual(Number(env.FIELDCAST_FILE_CACHE_MB));
    expect(mib(limits['ephemeral-storage'])).toBeGreaterThan(files);
  });

  it('Compose gives a stopping service longer than its drain (SHUTDOWN_TIMEOUT_MS, 10 s) before killing it', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true });
    for (const { area } of DEPLOYED_AREAS) expect(compose.services[area].stop_grace_period).toBe('20s');
  });

  it('Compose keeps Kafka and PostgreSQL data on volumes', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true });
    for (const [service, volume] of [
      ['kafka', 'kafkadata'],
      ['postgres', 'pgdata'],
    ] as const) {
      expect(compose.services[service].volumes[0].split(':')[0]).toBe(volume);
      expect(Object.keys(compose.volumes)).toContain(volume);
    }
    expect(compose.services.kafka.volumes[0].split(':')[1]).toBe(compose.services.kafka.environment.KAFKA_LOG_DIRS);
  });
});

// What the deployment files say about the code, checked against the code: a variable the fleet
// does not read is silently ignored (parseEnv strips unknown keys), a probe of a path no server
// answers restarts every pod, a port the process does not listen on takes it out of its Service.
describe('the deployment files against the code', () => {
  type EnvVar = { name: string; value?: string; valueFrom?: Record<string, unknown> };
  type Probe = { httpGet: { path: string; port: string } };
  type Container = {
    name: string;
    args: string[];
    env?: EnvVar[];
    envFrom?: { configMapRef: { name: string } }[];
    ports?: { name: string; containerPort: number }[];
    readinessProbe?: Probe;
    livenessProbe?: Probe;
    startupProbe?: Probe;
    volumeMounts?: { name: string; mountPath: string }[];
  };
  type Labels = Record<string, string>;
  /** The parts of the base's objects these checks read (a Service's selector is labels, the others' hold matchLabels). */
  type K8sObject = {
    kind: string;
    metadata: { name: string };
    data?: Record<string, string>;
    spec: {
      selector: Labels & { matchLabels: Labels };
      podSelector: { matchLabels: Labels };
      scaleTargetRef: Record<string, string>;
      ports: { targetPort: string }[];
      template: {
        metadata: { labels: Labels };
        spec: {
          terminationGracePeriodSeconds: number;
          initContainers?: Container[];
          containers: (Container & { lifecycle: { preStop: { exec: { command: string[] } } } })[];
        };
      };
    };
  };
  type ComposeService = {
    image?: string;
    command: string[];
    environment?: Record<string, string>;
    ports: string[];
    volumes?: string[];
    depends_on?: string[] | Record<string, { condition?: string }>;
    healthcheck: { test: string[] };
  };

  const yamlIn = (dir: string) => readdirSync(join(root, dir)).filter((name) => name.endsWith('.yaml'));
  /** The base as kustomize reads it: the files its kustomization lists. */
  const base: K8sObject[] = (parse(read('k8s/base/kustomization.yaml')).resources as string[]).flatMap((name) =>
    parseAllDocuments(read(`k8s/base/${name}`)).map((d) => d.toJS()),
  );
  const configMaps = new Map(base.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o.data ?? {}]));
  const deployments = base.filter((o) => o.kind === 'Deployment');
  const containersOf = (d: K8sObject): Container[] => [...(d.spec.template.spec.initContainers ?? []), ...d.spec.template.spec.containers];
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  /** Compose services run from the one image (the others are PostgreSQL's and Kafka's own). */
  const fleetServices = Object.entries(compose.services).filter(([, s]) => s.image === IMAGE);
  const dockerfile = read('Dockerfile');
  /** The image's ENV, every pod's and container's environment before its own. */
  const imageEnv = Object.fromEntries(
    [
      ...(
        dockerfile
          .split(/^FROM /m)
          .at(-1)!
          .match(/^ENV ((?:.*\\\n)*.*)$/m)?.[1] ?? ''
      ).matchAll(/([A-Z][A-Z0-9_]*)=(\S+)/g),
    ].map((m) => [m[1]!, m[2]!]),
  );
  const urlVariable = (area: string) => `FIELDCAST_${area.toUpperCase()}_URL`;

  /**
   * Variables read other than through FleetEnv (packages/runtime/src/env.ts), each with the file
   * that reads it; NODE_ENV is the Node.js convention the image sets for its libraries (Express).
   */
  const readElsewhere: Record<string, string | null> = {
    FIELDCAST_CACHE_DIR: 'packages/weather/src/synthetic/climate-lattice.ts',
    ...Object.fromEntries(SERVICES.map((s) => [urlVariable(s.area), 'packages/console/src/config.ts'])),
    NODE_ENV: null,
  };
  const readByTheFleet = (name: string) => name in FleetEnv.shape || name in readElsewhere;

  it('reads the variables it lists as read elsewhere there', () => {
    for (const [name, file] of Object.entries(readElsewhere)) {
      if (file === null) continue;
      const source = read(file);
      const reads = source.includes(name) || (name.endsWith('_URL') && source.includes('`FIELDCAST_${area.toUpperCase()}_URL`'));
      expect([name, reads]).toEqual([name, true]);
    }
  });

  it('sets only variables the fleet reads, in every manifest, ConfigMap, Compose service and the image', () => {
    const set: [string, string][] = [];
    for (const o of base) {
      if (o.kind === 'ConfigMap') for (const name of Object.keys(o.data ?? {})) set.push([`ConfigMap ${o.metadata.name}`, name]);
      if (o.kind === 'Deployment')
        for (const c of containersOf(o)) for (const { name } of c.env ?? []) set.push([`${o.metadata.name}/${c.name}`, name]);
    }
    for (const o of parseAllDocuments(read('k8s/examples/fieldcast.example.yaml')).map((d) => d.toJS()))
      for (const name of Object.keys({ ...o.data, ...o.stringData })) set.push([`example ${o.kind} ${o.metadata.name}`, name]);
    for (const [service, s] of fleetServices) for (const name of Object.keys(s.environment ?? {})) set.push([`compose ${service}`, name]);
    for (const name of Object.keys(imageEnv)) set.push(['Dockerfile', name]);
    expect(set.length).toBeGreaterThan(50);
    expect(set.filter(([, name]) => !readByTheFleet(name))).toEqual([]);
  });

  /** What a secret or a field reference gives at run time, as a value FleetEnv takes. */
  const resolved = (v: EnvVar): string =>
    v.value ??
    ((v.valueFrom as { secretKeyRef?: { key: string } }).secretKeyRef?.key === 'DATABASE_URL'
      ? 'postgres://fieldcast@postgres:5432/fieldcast'
      : (v.valueFrom as { secretKeyRef?: unknown }).secretKeyRef
        ? 'x'.repeat(32)
        : 'pod-name');
  const k8sEnv = (c: Container): NodeJS.ProcessEnv => ({
    ...imageEnv,
    ...Object.assign({}, ...(c.envFrom ?? []).map((f) => configMaps.get(f.configMapRef.name)!)),
    ...Object.fromEntries((c.env ?? []).map((v) => [v.name, resolved(v)])),
  });

  // Each value within env.ts's bounds, and what `serve <area>` requires of distributed mode there.
  it.each(deployments.map((d) => d.metadata.name))('%s: every container starts with the environment it is given', (name) => {
    const deployment = deployments.find((d) => d.metadata.name === name)!;
    for (const c of containersOf(deployment)) {
      for (const ref of c.envFrom ?? []) expect([c.name, configMaps.has(ref.configMapRef.name)]).toEqual([c.name, true]);
      const env = k8sEnv(c);
      expect(() => parseEnv(FleetEnv, env)).not.toThrow();
      const [command, what] = c.args;
      const service = SERVICES.find((s) => s.area === what);
      if (service) expect(env.DATABASE_URL).toBeDefined();
      if (service && command === 'serve' && needsTransport(service)) expect(env.KAFKA_BROKERS).toBeDefined();
      if (what === 'sync') expect(env.DATABASE_URL).toBeDefined();
      if (what === 'console') expect(() => areasFromEnv(AREAS, env, () => CONTAINER_PORT)).not.toThrow();
    }
  });

  it.each(fleetServices.map(([name]) => name))('Compose %s starts with the environment it is given', (name) => {
    const service = compose.services[name]!;
    const env: NodeJS.ProcessEnv = { ...imageEnv, ...service.environment, FIELDCAST_SYNC_SOURCES: 'gfs-0p25' };
    expect(() => parseEnv(FleetEnv, env)).not.toThrow();
    const area = SERVICES.find((s) => s.area === service.command[1]);
    if (area) expect(env.DATABASE_URL).toBeDefined();
    if (area && needsTransport(area)) expect(env.KAFKA_BROKERS).toBeDefined();
    if (name === CONSOLE) expect(() => areasFromEnv(AREAS, env, () => CONTAINER_PORT)).not.toThrow();
  });

  // A pod told to stop sleeps through its preStop, then drains for at most SHUTDOWN_TIMEOUT_MS: all
  // of it within the grace period, or the kubelet kills it with requests in flight (Kubernetes,
  // "Pod Lifecycle", termination of pods).
  it.each(deployments.map((d) => d.metadata.name))('%s drains within its grace period', (name) => {
    const pod = deployments.find((d) => d.metadata.name === name)!.spec.template.spec;
    const container = pod.containers[0]!;
    const [sleep, seconds] = container.lifecycle.preStop.exec.command.slice(-2);
    expect(sleep).toBe('sleep');
    const drain = parseEnv(FleetEnv, k8sEnv(container)).SHUTDOWN_TIMEOUT_MS / 1000;
    expect(Number(seconds) + drain).toBeLessThan(pod.terminationGracePeriodSeconds);
  });

  it('deploys every area of services/, and nothing else, from the registry', () => {
    const directories = readdirSync(join(root, 'services'), { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(directories.map((d) => d.name).sort()).toEqual(SERVICES.map((s) => s.area).sort());
    expect(DEPLOYED_AREAS.map((a) => [a.area, a.port])).toEqual(SERVICES.map((s) => [s.area, s.port]));
  });

  // The process listens on PORT (docs/operations.md "Environment"): the container's port, the
  // Service's target and Compose's published port must be that one.
  it.each([...AREAS, CONSOLE, 'sync'])('%s listens where its Service, its probes and Compose send requests', (name) => {
    const deployment = deployments.find((d) => d.metadata.name === name)!;
    const template = deployment.spec.template;
    expect(deployment.spec.selector.matchLabels).toEqual(template.metadata.labels);
    const container = template.spec.containers[0] as Container;
    expect(container.args).toEqual(['serve', name]);
    const port = Number(parseEnv(FleetEnv, k8sEnv(container)).PORT);
    const named = new Map((container.ports ?? []).map((p) => [p.name, p.containerPort]));
    expect(named.get('http')).toBe(port);
    for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe].filter(Boolean))
      expect(named.has(probe!.httpGet.port)).toBe(true);
    for (const o of base.filter((o) => o.kind === 'Service' && o.metadata.name === name)) {
      expect(o.spec.selector).toEqual(template.metadata.labels);
      for (const p of o.spec.ports) expect(named.has(p.targetPort)).toBe(true);
    }
    for (const o of base.filter((o) => ['PodDisruptionBudget', 'NetworkPolicy'].includes(o.kind) && o.metadata.name === name))
      expect(o.spec[o.kind === 'NetworkPolicy' ? 'podSelector' : 'selector'].matchLabels).toEqual(template.metadata.labels);
    for (const o of base.filter((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === name))
      expect(o.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    const service = compose.services[name]!;
    if (name === 'sync') return expect(service.ports).toBeUndefined();
    const [published] = service.ports;
    expect(Number(published!.split(':').at(-1))).toBe(Number(parseEnv(FleetEnv, { ...imageEnv, ...service.environment }).PORT));
    expect(Number(published!.split(':').at(-2))).toBe(portOf(name, 8080));
  });

  /** The file of the server that answers each process's probes. */
  const serverOf = (name: string) =>
    name === CONSOLE
      ? 'packages/console/src/server.ts'
      : name === 'sync'
        ? 'packages/fleet/src/serve-sync.ts'
        : 'packages/kit/src/service.ts';

  it.each([...AREAS, CONSOLE, 'sync'])('%s is probed, in Kubernetes and by Compose, at paths its server answers', (name) => {
    const container = deployments.find((d) => d.metadata.name === name)!.spec.template.spec.containers[0] as Container;
    const paths = [container.readinessProbe, container.livenessProbe, container.startupProbe].filter(Boolean).map((p) => p!.httpGet.path);
    const healthcheck = compose.services[name]!.healthcheck.test.join(' ');
    paths.push(...[...healthcheck.matchAll(/http:\/\/127\.0\.0\.1:\d+(\/[a-z]+)/g)].map((m) => m[1]!));
    expect(paths.length).toBeGreaterThanOrEqual(3);
    const server = read(serverOf(name));
    for (const path of new Set(paths)) expect([name, path, server.includes(`'${path}'`)]).toEqual([name, path, true]);
  });

  it('runs only commands the CLI has, and serves only what `serve` takes', () => {
    const cli = read('packages/fleet/src/cli.ts');
    // the table of commands, and `help`, which main answers before it
    const commands = new Set([...cli.matchAll(/\bname: '([a-z-]+)'/g)].map((m) => m[1]));
    if (cli.includes("command === 'help'")) commands.add('help');
    const run = [
      ...deployments.flatMap((d) => containersOf(d).map((c) => c.args)),
      ...fleetServices.map(([, s]) => s.command),
      JSON.parse(dockerfile.match(/^CMD (.*)$/m)![1]!) as string[],
      dockerfile.match(/node \/out\/cli\.js (.*)$/m)![1]!.split(' '),
    ];
    for (const [command, what] of run) {
      expect([command, commands.has(command)]).toEqual([command, true]);
      if (command === 'serve') expect([...AREAS, CONSOLE, 'sync']).toContain(what);
      if (command === 'migrate') expect(AREAS).toContain(what);
    }
  });

  it('lists in each kustomization only files and directories there are', () => {
    for (const dir of ['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod']) {
      for (const resource of parse(read(`${dir}/kustomization.yaml`)).resources as string[]) {
        const path = join(root, dir, resource);
        expect([dir, resource, existsSync(path) && (resource.endsWith('.yaml') || existsSync(join(path, 'kustomization.yaml')))]).toEqual([
          dir,
          resource,
          true,
        ]);
      }
    }
    expect(yamlIn('k8s/base').filter((f) => f !== 'kustomization.yaml')).toEqual(
      expect.arrayContaining(parse(read('k8s/base/kustomization.yaml')).resources),
    );
  });

  // `kubectl apply -k` of an overlay replaces an object of the same kind and name applied before
  // it: a setting put there would be silently undone.
  it('gives in the example only objects the overlays do not apply themselves', () => {
    const examples = parseAllDocuments(read('k8s/examples/fieldcast.example.yaml')).map((d) => d.toJS() as K8sObject);
    const applied = new Set(base.map((o) => `${o.kind}/${o.metadata.name}`));
    expect(examples.map((o) => `${o.kind}/${o.metadata.name}`).filter((id) => applied.has(id))).toEqual([]);
  });

  it('Compose: every service it waits for is defined with a health check, and every volume it mounts is declared', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const dependsOn = service.depends_on ?? [];
      const waitsFor: [string, { condition?: string }][] = Array.isArray(dependsOn)
        ? dependsOn.map((d) => [d, {}])
        : Object.entries(dependsOn);
      for (const [other, { condition }] of waitsFor) {
        expect([name, other, other in compose.services]).toEqual([name, other, true]);
        if (condition === 'service_healthy')
          expect([name, other, compose.services[other]?.healthcheck]).toEqual([name, other, expect.anything()]);
      }
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (!source.startsWith('.') && !source.startsWith('/')) expect([name, source in compose.volumes]).toEqual([name, true]);
      }
    }
  });

  // A fresh named volume takes the owner of the image's directory it is mounted on; a read-only
  // root filesystem leaves only the volumes and /tmp to write.
  it('mounts the volumes of the fleet on directories the image makes its user own', () => {
    const owned = dockerfile.match(/chown node:node ([^\n]+)/)![1]!.split(' ');
    const mounts = [
      ...fleetServices.flatMap(([, s]) => (s.volumes ?? []).map((v) => v.split(':')[1]!)),
      ...deployments.flatMap((d) => containersOf(d).flatMap((c) => (c.volumeMounts ?? []).map((m) => m.mountPath))),
    ].filter((path) => path !== '/tmp');
    expect(mounts.length).toBeGreaterThan(0);
    for (const path of new Set(mounts)) expect(owned).toContain(path);
  });

  // `COPY . .` sends the build what .dockerignore leaves: what git ignores is made here (the tests'
  // output, a local data dir), changes with every run and would begin the build again from the install.
  it('keeps out of the image build what git ignores', () => {
    const lines = (path: string) =>
      read(path)
        .split('\n')
        .map((line) => line.trim().replace(/\/$/, ''))
        .filter((line) => line && !line.startsWith('#'));
    const ignored = new Set(lines('.dockerignore'));
    expect(lines('.gitignore').filter((pattern) => !ignored.has(pattern) && !ignored.has(`**/${pattern}`))).toEqual([]);
  });

  // docs/decisions/0089-climate-lattice-file.md: the build stage writes the lattice, the runtime stage reads it.
  it('the image carries the climate lattice where its processes read it, and runs the bundle it builds', () => {
    const out = dockerfile.match(/pnpm@10 run build --out (\S+)/)![1]!;
    const [, from, to] = dockerfile.match(/COPY --from=build \S* ?(\S+) (\S+)\n/)!;
    expect(from).toBe(out);
    const written = dockerfile.match(/FIELDCAST_CACHE_DIR=(\S+) node (\S+)\/cli\.js climate-lattice/)!;
    expect(written[2]).toBe(out);
    expect(imageEnv.FIELDCAST_CACHE_DIR).toBe(written[1]!.replace(out, to!));
    expect(dockerfile).toMatch(new RegExp(`^WORKDIR ${to}$`, 'm'));
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "cli\.js"\]$/m);
    expect(Number(imageEnv.PORT)).toBe(CONTAINER_PORT);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${CONTAINER_PORT}$`, 'm'));
  });
});
