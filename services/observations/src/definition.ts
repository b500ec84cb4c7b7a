import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';

/** The observations service: what `fieldcast serve observations` and the embedded fleet run. */
export const observationsService = defineService({
  area: 'observations',
  title: 'Observations',
  description: 'Observations (docs/interface.md).',
  needs: {},
  api: () => new Api(),
});
