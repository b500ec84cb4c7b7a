import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';

/** The model service: what `fieldcast serve model` and the embedded fleet run. */
export const modelService = defineService({
  area: 'model',
  title: 'Model',
  description: 'Model (docs/interface.md).',
  needs: {},
  api: () => new Api(),
});
