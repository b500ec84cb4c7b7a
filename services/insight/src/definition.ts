import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';

/** The insight service: what `fieldcast serve insight` and the embedded fleet run. */
export const insightService = defineService({
  area: 'insight',
  title: 'Insight',
  description: 'Insight (docs/interface.md).',
  needs: {},
  api: () => new Api(),
});
