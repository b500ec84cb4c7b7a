import { createCatalog } from '@fieldcast/weather';
import { DefaultStyles } from '../src/domain/styles.js';
import { warmTileDrawing } from '../src/domain/warm-up.js';

/*
 * The tiles area practises painting and encoding at start (docs/decisions/0355-cold-tiles-drawn-by-compiled-code.md):
 * a practice tile of each colorizer mode among the default styles, so a process's first tile is
 * painted and filtered by compiled code.
 */
it('paints and encodes practice tiles with a default style of each colorizer mode', async () => {
  const defaults = new DefaultStyles(createCatalog());
  expect((await warmTileDrawing(defaults.byId.values())).sort()).toEqual(['discrete', 'linear']);
});

it('practises nothing without styles to practise with', async () => {
  expect(await warmTileDrawing([])).toEqual([]);
});
