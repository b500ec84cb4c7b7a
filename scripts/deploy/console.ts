// The web console in the deployment files: `fieldcast serve console`, its own container beside the
// areas (docs/architecture.md §2, docs/decisions/0190-console-served-by-the-fleet.md). It holds
// no data and needs no database or broker; the page it serves calls every area from the browser,
// so each area's URL is the address a browser reaches it at, not the container's name
// (docs/decisions/0195-console-in-the-deploy-files.md).
import {
  composePorts,
  CONTAINER_PORT,
  CONTAINER_SECURITY,
  GENERATED,
  HEALTH_PROBES,
  IMAGE,
  k8sPodDisruptionBudget,
  k8sService,
  podSpread,
  POD_SECURITY,
  PRE_STOP,
  type PortOf,
} from './common.js';
import { podResources } from './resources.js';

/** The console's name as a Compose service, a Deployment and the CLI's `serve` argument. */
export const CONSOLE = 'console';

/** The ConfigMap holding the areas' URLs as the browser reaches them. */
const CONSOLE_CONFIG = 'fieldcast-console';

/** The variable the console reads an area's base URL from (packages/console/src/config.ts). */
const urlVariable = (area: string) => `FIELDCAST_${area.toUpperCase()}_URL`;

/** Each area on this machine at the port its container is published on, or forwarded to. */
const localUrls = (areas: readonly { area: string }[], portOf: PortOf) =>
  areas.map(({ area }) => [urlVariable(area), `http://localhost:${portOf(area, CONTAINER_PORT)}`] as const);

/**
 * The Compose service, from the one image. Compose publishes each area on its fleet port, so a
 * browser on this machine reaches the areas where the embedded fleet has them.
 */
export function renderComposeConsole(areas: readonly { area: string }[], portOf: PortOf): string {
  return `  ${CONSOLE}:
    <<: *service
    command: ["serve", "${CONSOLE}"]
    ports: ${composePorts(portOf(CONSOLE, CONTAINER_PORT))}
    # no database or broker: the page calls the areas, at the ports published here
    environment:
      PORT: "${CONTAINER_PORT}"
      LOG_LEVEL: info
${localUrls(areas, portOf)
  .map(([name, url]) => `      ${name}: ${url}\n`)
  .join('')}    depends_on: [${areas.map((a) => a.area).join(', ')}]
`;
}

/**
 * The console's ConfigMap, Deployment, Service and PodDisruptionBudget: two replicas of a static
 * server, locked down as the areas are (the "restricted" Pod Security Standard), without the
 * database or broker settings. The ConfigMap's URLs are those `kubectl port-forward` gives; an
 * overlay behind an ingress replaces them with the ingress's addresses.
 */
export function renderK8sConsole(areas: readonly { area: string }[], portOf: PortOf): string {
  const name = `{ app.kubernetes.io/name: ${CONSOLE} }`;
  const forwards = [CONSOLE, ...areas.map((a) => a.area)]
    .map((service) => `#   kubectl port-forward svc/${service} ${portOf(service, CONTAINER_PORT)}:80\n`)
    .join('');
  return `# ${GENERATED}
#
# The browser calls each area itself, so the ConfigMap holds the addresses a browser reaches them
# at. As given, those that port forwarding opens on the viewer's machine:
${forwards}# An overlay behind an ingress replaces them with the ingress's addresses.
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${CONSOLE_CONFIG}
  labels: ${name}
data:
${localUrls(areas, portOf)
  .map(([variable, url]) => `  ${variable}: ${url}\n`)
  .join('')}---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${CONSOLE}
  labels: ${name}
spec:
  replicas: 2
  selector:
    matchLabels: ${name}
  template:
    metadata:
      labels: ${name}
    spec:
      terminationGracePeriodSeconds: 30
${podSpread(name)}${POD_SECURITY}      containers:
        - name: ${CONSOLE}
          image: ${IMAGE}
          args: ["serve", "${CONSOLE}"]
          ports:
            - { name: http, containerPort: ${CONTAINER_PORT} }
          envFrom:
            - configMapRef: { name: fieldcast }
            - configMapRef: { name: ${CONSOLE_CONFIG} }
${HEALTH_PROBES}${PRE_STOP}${podResources(CONSOLE)}${CONTAINER_SECURITY}          volumeMounts:
            - { name: tmp, mountPath: /tmp }
      volumes:
        - name: tmp
          emptyDir: { sizeLimit: 64Mi }
---
${k8sService(CONSOLE, name)}---
${k8sPodDisruptionBudget(CONSOLE, name)}`;
}
