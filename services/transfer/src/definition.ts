import { Api } from '@fieldcast/kit';
import { defineService } from '@fieldcast/runtime';

/** The transfer service: what `fieldcast serve transfer` and the embedded fleet run. */
export const transferService = defineService({
  area: 'transfer',
  title: 'Transfer',
  description: 'Transfer (docs/interface.md).',
  needs: {},
  api: () => new Api(),
});
