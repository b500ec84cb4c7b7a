import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';

/** The platform service: what `fieldcast serve platform` and the embedded fleet run. */
export const platformService = defineService({
  area: 'platform',
  title: 'Platform',
  description: 'Platform (docs/interface.md).',
  needs: {},
  api: () => new Api(),
});
