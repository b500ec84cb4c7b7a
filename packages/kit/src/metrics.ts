import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * A figure a service reports besides HTTP's (the runtime's pipeline: outbox, broker, consumers),
 * read at each scrape. A counter's value is its total so far.
 */
export interface MetricSource {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  labelNames?: readonly string[];
  read(): Promise<readonly { labels?: Record<string, string | number>; value: number }[]>;
}

/** Per-app registry: nine apps share one process in the embedded fleet without clashing. */
export function createMetrics(area: string, sources: readonly MetricSource[] = []) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: area });
  collectDefaultMetrics({ register: registry });
  for (const source of sources) {
    const options = { name: source.name, help: source.help, labelNames: [...(source.labelNames ?? [])], registers: [registry] };
    if (source.type === 'gauge') {
      new Gauge({
        ...options,
        async collect() {
          this.reset();
          for (const { labels, value } of await source.read()) this.set(labels ?? {}, value);
        },
      });
    } else {
      new Counter({
        ...options,
        async collect() {
          this.reset();
          for (const { labels, value } of await source.read()) this.inc(labels ?? {}, value);
        },
      });
    }
  }
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = latency.startTimer();
    res.on('finish', () => {
      // Label by template, never the raw path, so ids do not explode the series count.
      const labels = { method: req.method, route: (res.locals.route as string | undefined) ?? 'unmatched', status: String(res.statusCode) };
      requests.inc(labels);
      end(labels);
    });
    next();
  };
  return { registry, middleware };
}

/** GET /metrics: the registry's figures in the Prometheus text format. */
export function metricsEndpoint(registry: Registry): RequestHandler {
  return async (_req, res) => {
    res.locals.route = '/metrics';
    res.type(registry.contentType).send(await registry.metrics());
  };
}
