import { Api } from '@fieldcast/kit';
import { defineService, ProductGrantCopy, productGrantsConsumer } from '@fieldcast/runtime';
import {
  catalogServed,
  frameIndexOf,
  readClimateLattice,
  servedWeatherOf,
  SyntheticSource,
  syncedProductsOf,
  warmSyntheticWorld,
} from '@fieldcast/weather';
import { zoomLevelsOf } from './domain/frames.js';
import { stylesMigration } from '../migrations/001_styles.js';
import { productGrantsMigration } from '../migrations/002_product_grants.js';
import { styleNameKeysMigration } from '../migrations/003_style_name_keys.js';
import { styleViewsMigration } from '../migrations/004_style_views.js';
import { idempotencyKeysMigration } from '../migrations/005_idempotency_keys.js';
import { keptAnswerTagsMigration } from '../migrations/006_kept_answer_tags.js';
import { OpeningView } from './domain/opening-view.js';
import { tileCache } from './domain/sample-cache.js';
import { DefaultStyles } from './domain/styles.js';
import { TileProducts } from './domain/products.js';
import { TileRenderer } from './domain/tiles.js';
import { styleRoutes } from './routes/styles.js';
import { tileRoutes } from './routes/tiles.js';
import { tileSampler, SAMPLE_WORKER } from './sample-compute.js';
import { AREA, STYLES_TOPIC, StyleStore } from './store.js';
import { OPENING_VIEW } from '@fieldcast/console/opening-view';

/** The name of the background task that draws the opening view of each new frame. */
const OPENING_VIEW_TASK = 'opening-view';

/** How often that task looks for a new frame to draw: a new hour's frame is drawn within a minute of it. */
const OPENING_VIEW_EVERY_MS = 60_000;

/**
 * The opening view each `api` made, for its service's background task (both are made from the same
 * deps), and whether the area's warm-up has drawn it once: passes before that (the first runs at
 * start) leave the process to start.
 */
const openingViews = new WeakMap<object, { drawAhead(nowMs: number): Promise<void>; warmed: boolean }>();

/**
 * Bytes of sampled grid values kept between tile requests (docs/decisions/0036-caches.md): 256
 * tiles' worth of one variable (256 KB each).
 */
export const SAMPLE_CACHE_BYTES = 64 * 1024 * 1024;

/** Bytes of encoded tiles kept by their ETag: about 500 tiles of 60 KB. */
export const PNG_CACHE_BYTES = 32 * 1024 * 1024;

/** The tiles service: what `fieldcast serve tiles` and the embedded fleet run. */
export const tilesService = defineService({
  area: AREA,
  port: 2,
  workers: [SAMPLE_WORKER],
  title: 'Tiles',
  description: 'Contributed styles and PNG tiles of product frames (spec 2.3, 4.3; docs/interface.md §4).',
  needs: {
    database: {
      migrations: [
        stylesMigration,
        productGrantsMigration,
        styleNameKeysMigration,
        styleViewsMigration,
        idempotencyKeysMigration,
        keptAnswerTagsMigration,
      ],
    },
    outbox: { topics: [STYLES_TOPIC] },
    weather: true,
    catalog: true,
  },
  api(deps) {
    // Under FIELDCAST_SYNTHETIC=off the catalog's products are not served, only the synced ones.
    const catalog = catalogServed(deps.catalog, deps.weather);
    const styles = new StyleStore(deps.db.knex, deps.outbox, deps.now, { soleWriter: deps.db.kind === 'pglite' });
    const frames = frameIndexOf(catalog.products());
    const defaults = new DefaultStyles(catalog, deps.catalog.products());
    const grants = new ProductGrantCopy(deps.db.knex, 'tiles');
    // The synced sources' products, when the weather serves synced stores (docs/decisions/0315-synced-sources-as-products.md).
    const syncDir = servedWeatherOf(deps.weather).syncDir;
    const products = new TileProducts(catalog, defaults, syncDir ? syncedProductsOf(syncDir, deps.catalog.products()) : null, deps.now);
    // Below the native zoom a cold tile is read pixel by pixel: those go to compute threads.
    const grid = deps.weather.grid;
    const sampler = tileSampler(deps.weather, deps.computeThreads, zoomLevelsOf(Math.max(grid.dLat, grid.dLon)).native);
    const renderer = new TileRenderer({
      defaults,
      weather: deps.weather,
      frames,
      styles,
      grants,
      cache: tileCache<Float32Array>(SAMPLE_CACHE_BYTES),
      now: deps.now,
      pngs: tileCache<Buffer>(PNG_CACHE_BYTES),
      sampler,
      products,
      models: deps.catalog.models(),
    });
    const opening = new OpeningView(renderer, frames, catalog.product(OPENING_VIEW.product));
    const opened = {
      warmed: false,
      // a tile that fails to draw is the next request's to report too: here it is logged, not thrown
      drawAhead: (nowMs: number) =>
        opening.draw(nowMs).then(
          () => undefined,
          (err: unknown) => deps.logger.warn({ err }, 'the opening view was not drawn ahead'),
        ),
    };
    openingViews.set(deps, opened);
    const api = tileRoutes(styleRoutes(new Api(), { products, styles, defaults, grants }), {
      catalog,
      renderer,
      frames,
      products,
      grants,
      now: deps.now,
    });
    // The warm-up runs after the area listens and may outlive it: each step first asks whether
    // the area is still open, and the lattice's read stops with it. A step that fails is logged; the
    // requests that need it report it.
    const open = new AbortController();
    const closed = () => open.signal.aborted;
    const warmUp = async () => {
      await renderer.warmDrawing();
      // nothing to prepare of the weather where the synthetic world is off (docs/decisions/0256-synthetic-off.md)
      if (closed() || !servedWeatherOf(deps.weather).synthetic) return;
      await warmSyntheticWorld(new SyntheticSource());
      if (closed()) return;
      // a file that cannot be read fails the tile that reads the row, as it would have, not the process here
      await readClimateLattice(open.signal).catch(() => 0);
      if (closed()) return;
      opened.warmed = true;
      await opened.drawAhead(deps.now().getTime());
    };
    return {
      api,
      close: async () => {
        open.abort();
        opening.close();
        await Promise.all([sampler.close(), frames.stop()]);
      },
      // The frame index, the compute threads and the synthetic climate (and its compiled reads) are
      // made at start, not by the first tile (0120, 0132, 0089, 0305); so is the climate lattice's
      // table, which the process shares with its threads and a world view's first tiles read most of (0330).
      // Painting and encoding are practised too, whatever the weather (0355); then the opening view is drawn (0356).
      warm: () => {
        frames.start(deps.now().getTime());
        sampler.prestart();
        // after the start's own work (setImmediate); its promise says when the opening view is drawn
        return new Promise<void>((next) => setImmediate(next))
          .then(warmUp)
          .catch((err: unknown) => deps.logger.warn({ err }, "the tiles area's warm-up stopped"));
      },
    };
  },
  // The opening view of each new frame, drawn ahead (0356), once the warm-up has drawn it first.
  background(deps) {
    const opened = openingViews.get(deps);
    if (!opened) return [];
    return [
      {
        name: OPENING_VIEW_TASK,
        everyMs: OPENING_VIEW_EVERY_MS,
        // Not awaited: a pass that draws a new frame takes seconds, and the service's stop, which
        // waits for its tasks' passes, ends it between tiles instead.
        run: async (nowMs: number) => {
          if (opened.warmed) void opened.drawAhead(nowMs);
        },
      },
    ];
  },
  // Restricted products are served to the accounts the platform area granted them (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
  consumers(deps) {
    return [productGrantsConsumer('tiles', new ProductGrantCopy(deps.db.knex, 'tiles'), deps.logger)];
  },
});
