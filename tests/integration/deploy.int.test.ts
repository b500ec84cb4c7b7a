import { execFileSync, spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { validateKubernetesObject, type KubernetesObject } from './k8s-schemas.js';

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

  it('renders every kind the base declares', () => {
    const kinds = new Set(objects.map((o) => o.kind));
    expect([...kinds].sort()).toEqual(['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Service']);
  });

  it('renders only objects valid against the Kubernetes schemas', async () => {
    for (const object of objects) await validateKubernetesObject(object);
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
