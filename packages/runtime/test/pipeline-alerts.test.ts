import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { InProcessTransport } from '@fieldcast/bus';
import type { Outbox } from '@fieldcast/db';
import { pipelineMetrics } from '../src/pipeline-metrics.js';

/** The example alert rules (k8s/alerts) watch only figures the runtime exports, so they cannot rot. */
describe('the pipeline alert rules', () => {
  it('name only metrics of pipelineMetrics, and every one of those is watched', () => {
    const file = parse(readFileSync(join(process.cwd(), 'k8s/alerts/fieldcast-pipeline.rules.yaml'), 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const named = new Set(file.groups.flatMap((g) => g.rules.flatMap((r) => r.expr.match(/fieldcast_[a-z_]+/g) ?? [])));
    const exported = pipelineMetrics({} as Outbox, new InProcessTransport(), () => []).map((m) => m.name);
    expect([...named].sort()).toEqual([...exported].sort());
  });
});
