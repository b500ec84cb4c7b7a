import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';

/** The tiles service: what `fieldcast serve tiles` and the embedded fleet run. */
export const tilesService = defineService({
  area: 'tiles',
  title: 'Tiles',
  description: 'Tiles (docs/interface.md).',
  needs: {},
  api: () => new Api(),
});
