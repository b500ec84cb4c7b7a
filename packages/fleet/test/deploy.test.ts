import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { DEPLOYED_AREAS, portOf } from '../../../scripts/deploy/areas.js';
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
