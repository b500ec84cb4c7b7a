/**
 * How the sync's passes ended, per source (docs/decisions/0252-sync-as-a-process.md): counted by
 * `fieldcast serve sync` and by the pollers `fieldcast start` runs for FIELDCAST_SYNC_SOURCES, and
 * read as `fieldcast_sync_passes_total{source,outcome}` in /metrics, so a source that keeps
 * failing is seen without reading logs (issue: bad upstream data is reported by log, metric and,
 * for --once, exit code).
 */
import type { MetricSource } from '@fieldcast/kit';

export type SyncOutcome = 'published' | 'pending' | 'up-to-date' | 'failed' | 'locked';

const NAME = 'fieldcast_sync_passes_total';
const HELP = 'Sync passes by source and outcome';

export class SyncPasses {
  private readonly counts = new Map<string, { source: string; outcome: SyncOutcome; value: number }>();

  count(source: string, outcome: SyncOutcome): void {
    const key = `${source}\t${outcome}`;
    const entry = this.counts.get(key) ?? { source, outcome, value: 0 };
    entry.value += 1;
    this.counts.set(key, entry);
  }

  /** The counter as a figure of the areas' /metrics (the embedded fleet's pollers run in their process). */
  metric(): MetricSource {
    return {
      name: NAME,
      help: HELP,
      type: 'counter',
      labelNames: ['source', 'outcome'],
      read: async () => [...this.counts.values()].map(({ source, outcome, value }) => ({ labels: { source, outcome }, value })),
    };
  }

  /** The counter in the Prometheus text format, for `fieldcast serve sync`'s own /metrics. */
  text(): string {
    const lines = [`# HELP ${NAME} ${HELP}`, `# TYPE ${NAME} counter`];
    for (const { source, outcome, value } of this.counts.values()) lines.push(`${NAME}{source="${source}",outcome="${outcome}"} ${value}`);
    return `${lines.join('\n')}\n`;
  }
}
