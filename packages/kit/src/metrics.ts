import type { RequestHandler } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Per-app registry: nine apps share one process in the embedded fleet without clashing. */
export function createMetrics(area: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: area });
  collectDefaultMetrics({ register: registry });
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
