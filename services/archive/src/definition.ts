import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';

/** The archive service: what `fieldcast serve archive` and the embedded fleet run. */
export const archiveService = defineService({
  area: 'archive',
  title: 'Archive',
  description: 'Archive (docs/interface.md).',
  needs: {},
  api: () => new Api(),
});
