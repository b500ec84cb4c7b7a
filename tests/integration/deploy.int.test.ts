import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { TOPIC_PARTITIONS } from '@fieldcast/bus';
import { validateKubernetesObject, validateKubernetesObjects, type KubernetesObject } from './k8s-schemas.js';

// The deployment as a cluster and Compose would read it: both overlays rendered by kustomize
// (kubectl's built-in copy) and every object checked against the Kubernetes API schemas;
// docker-compose.yml checked by Compose itself where a Docker engine runs.
const root = process.cwd();

function render(overlay: string): KubernetesObject[] {
  const text = execFileSync('kubectl', ['kustomize', `k8s/overlays/${overlay}`], { cwd: root, encoding: 'utf8' });
  return parseAllDocuments(text).map((doc) => doc.toJS() as KubernetesObject);
}

describe.each(['dev', 'prod'])('k8s/overlays/%s', (overlay) => {
  const objects = render(overlay);

  it('renders every kind the base declares, and the namespace it puts them in', () => {
    const kinds = new Set(objects.map((o) => o.kind));
    expect([...kinds].sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Namespace',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
    ]);
    const namespaces = objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata!.name);
    expect(namespaces).toHaveLength(1);
    const placed = new Set(objects.filter((o) => o.kind !== 'Namespace').map((o) => (o.metadata as { namespace?: string }).namespace));
    expect([...placed]).toEqual(namespaces);
  });

  it('gives every container memory and CPU requests and limits and a preStop delay; the console its own', () => {
    const deployments = objects.filter((o) => o.kind === 'Deployment') as Deployment[];
    for (const d of deployments) {
      const [container] = d.spec.template.spec.containers;
      // ephemeral storage besides, where a pod's volumes fill more than a node keeps free as a rule
      const kinds = (resources: Record<string, string>) => Object.keys(resources).filter((k) => k !== 'ephemeral-storage');
      expect([d.metadata.name, kinds(container.resources.requests).sort(), kinds(container.resources.limits).sort()]).toEqual([
        d.metadata.name,
        ['cpu', 'memory'],
        ['cpu', 'memory'],
      ]);
      expect(container.lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
    }
    const memory = (name: string) =>
      deployments.find((d) => d.metadata.name === name)!.spec.template.spec.containers[0].resources.requests.memory;
    expect(memory('console')).not.toBe(memory('agriculture'));
    if (overlay === 'prod') expect(deployments.find((d) => d.metadata.name === 'console')!.spec.replicas).toBeLessThan(3);
  });

  it('leaves the count of each autoscaled Deployment to its autoscaler, so an apply does not scale it back', () => {
    const scaled = new Set(
      objects
        .filter((o) => o.kind === 'HorizontalPodAutoscaler')
        .map((o) => (o as KubernetesObject & { spec: { scaleTargetRef: { name: string } } }).spec.scaleTargetRef.name),
    );
    expect(scaled.size).toBeGreaterThan(0);
    for (const d of objects.filter((o) => o.kind === 'Deployment') as Deployment[])
      expect([d.metadata.name, scaled.has(d.metadata.name) ? 'replicas' in d.spec : null]).toEqual([
        d.metadata.name,
        scaled.has(d.metadata.name) ? false : null,
      ]);
  });

  it('never scales the events consumer past the partitions of a topic', () => {
    const events = objects.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata!.name === 'events') as KubernetesObject & {
      spec: { maxReplicas: number };
    };
    expect(events.spec.maxReplicas).toBeLessThanOrEqual(TOPIC_PARTITIONS);
  });

  it('runs no sync poller unless the overlay gives it sources, since `serve sync` refuses to start without them', () => {
    const sync = objects.find((o) => o.kind === 'Deployment' && o.metadata!.name === 'sync') as Deployment;
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata!.name === 'fieldcast') as KubernetesObject & {
      data: Record<string, string>;
    };
    const env = (sync.spec.template.spec.containers[0] as { env?: { name: string; value?: string }[] }).env ?? [];
    const sources = env.find((e) => e.name === 'FIELDCAST_SYNC_SOURCES')?.value ?? config.data.FIELDCAST_SYNC_SOURCES;
    if (!sources) expect(sync.spec.replicas).toBe(0);
  });

  it('renders only objects valid against the Kubernetes schemas, with no field their kinds lack', async () => {
    await validateKubernetesObjects(objects);
  });
});

/** The parts of a rendered Deployment the checks above read. */
type Deployment = KubernetesObject & {
  metadata: { name: string };
  spec: {
    replicas?: number;
    template: {
      spec: {
        containers: [
          {
            resources: { requests: Record<string, string>; limits: Record<string, string> };
            lifecycle: { preStop: { exec: { command: string[] } } };
          },
        ];
      };
    };
  };
};

describe('k8s/examples/fieldcast.example.yaml', () => {
  const objects = parseAllDocuments(readFileSync(`${root}/k8s/examples/fieldcast.example.yaml`, 'utf8')).map(
    (doc) => doc.toJS() as KubernetesObject & { stringData?: Record<string, string> },
  );

  it('holds every Secret the pods read, valid, with placeholders only', async () => {
    await validateKubernetesObjects(objects);
    const read = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        const ref = (value as { secretKeyRef?: { name: string; key: string } }).secretKeyRef;
        if (ref) read.add(`${ref.name} ${ref.key}`);
        Object.values(value).forEach(collect);
      }
    };
    collect(render('prod'));
    const given = objects
      .filter((o) => o.kind === 'Secret')
      .flatMap((o) => Object.keys(o.stringData!).map((key) => `${o.metadata!.name} ${key}`));
    expect([...read].sort()).toEqual(given.sort());
    for (const o of objects.filter((o) => o.kind === 'Secret'))
      for (const value of Object.values(o.stringData!)) expect(value).toMatch(/<[^>]+>/);
  });

  // A pod whose claim does not exist stays Pending, so every claim the pods mount is shown, shared
  // by every replica on any node: ReadWriteMany (Kubernetes, "Persistent Volumes", access modes).
  it('holds every PersistentVolumeClaim the pods mount, shared by every node', () => {
    const mounted = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        const claim = (value as { persistentVolumeClaim?: { claimName: string } }).persistentVolumeClaim;
        if (claim) mounted.add(claim.claimName);
        Object.values(value).forEach(collect);
      }
    };
    collect(render('prod'));
    expect(mounted.size).toBeGreaterThan(0);
    const claims = objects.filter((o) => o.kind === 'PersistentVolumeClaim') as (KubernetesObject & {
      metadata: { name: string };
      spec: { accessModes: string[] };
    })[];
    expect(claims.map((c) => c.metadata.name).sort()).toEqual([...mounted].sort());
    for (const claim of claims) expect(claim.spec.accessModes).toEqual(['ReadWriteMany']);
  });
});

describe('the schema check', () => {
  const deployment = () =>
    render('dev').find((o) => o.kind === 'Deployment') as KubernetesObject & {
      spec: { template: { spec: { containers: ({ ports: { containerPort: unknown }[] } & Record<string, unknown>)[] } } };
    };

  it('refuses a port given as a word', async () => {
    const broken = deployment();
    broken.spec.template.spec.containers[0]!.ports[0]!.containerPort = 'eighty';
    await expect(validateKubernetesObject(broken)).rejects.toThrow(/containerPort must be integer/);
  });

  it('refuses a container without a name', async () => {
    const broken = deployment();
    delete broken.spec.template.spec.containers[0]!.name;
    await expect(validateKubernetesObject(broken)).rejects.toThrow(/containers\/0 must have required property name/);
  });

  // The API server drops a field its schema does not have (with a warning, at most), so a misspelt
  // probe would deploy pods that are never probed.
  it('refuses a field its kind does not have, at any depth', async () => {
    const broken = deployment();
    const container = broken.spec.template.spec.containers[0]!;
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    await expect(validateKubernetesObject(broken)).rejects.toThrow(/readinesProbe/);
  });

  it('refuses a kind it has no schema for', async () => {
    await expect(validateKubernetesObject({ apiVersion: 'apps/v1', kind: 'Deploymnet' })).rejects.toThrow(/no schema/);
  });
});

describe('docker-compose.yml', () => {
  const engine = spawnSync('docker', ['info'], { stdio: 'ignore' });
  const hasEngine = engine.status === 0;
  if (!hasEngine) {
    process.stdout.write(
      `docker compose config: skipped, no Docker engine answers \`docker info\` (${engine.error ? engine.error.message : `exit ${engine.status}`})\n`,
    );
  }
  (hasEngine ? it : it.skip)('is a valid Compose file', () => {
    const services = execFileSync('docker', ['compose', 'config', '--services'], { cwd: root, encoding: 'utf8' });
    expect(services.split('\n').filter(Boolean).sort()).toEqual(expect.arrayContaining(['kafka', 'postgres']));
  });
});
