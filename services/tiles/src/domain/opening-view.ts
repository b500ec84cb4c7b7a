/**
 * The tiles a map client opens on, drawn for each new frame before anyone asks
 * (docs/decisions/0356-opening-view-drawn-ahead.md): the console's opening view (OPENING_VIEW) as a
 * large screen shows it, and the world at zooms 0 to 2. A cold tile at a low zoom reads hundreds
 * of thousands of grid points; a client opening on a new frame asks for dozens at once, and on
 * two cores the last of them waited seconds.
 */
import { OPENING_VIEW } from '@fieldcast/console/opening-view';
import { type FrameIndex, lonLatToTileXY, type ProductDef, productFrames, TILE_SIZE } from '@fieldcast/weather';
import type { TileAddress } from './sampling.js';
import type { TileRenderer } from './tiles.js';

/** Zooms drawn whole: every tile of the world (1 + 4 + 16 tiles). */
const WORLD_ZOOMS = 2;

/** The largest screen the opening view is drawn for, in CSS pixels (a full HD display). */
const SCREEN = { width: 1920, height: 1080 };

/**
 * The opening tiles, in the order they are drawn: the tiles of OPENING_VIEW.zoom a SCREEN centred
 * on its centre shows (as Leaflet lays them out: columns wrap around the world, rows stop at its
 * edges), nearest the centre first as a browser asks for them, then every tile of zooms 0 to
 * WORLD_ZOOMS not among them.
 */
export function openingTiles(): TileAddress[] {
  const z = OPENING_VIEW.zoom;
  const n = 2 ** z;
  const centre = lonLatToTileXY(OPENING_VIEW.longitude, OPENING_VIEW.latitude, z);
  const half = { x: SCREEN.width / 2 / TILE_SIZE, y: SCREEN.height / 2 / TILE_SIZE };
  const view: { tile: TileAddress; distance: number }[] = [];
  const seen = new Set<string>();
  const add = (tile: TileAddress, distance: number) => {
    const key = `${tile.z}/${tile.x}/${tile.y}`;
    if (seen.has(key)) return;
    seen.add(key);
    view.push({ tile, distance });
  };
  for (let y = Math.max(0, Math.floor(centre.y - half.y)); y <= Math.min(n - 1, Math.floor(centre.y + half.y)); y++)
    for (let column = Math.floor(centre.x - half.x); column <= Math.floor(centre.x + half.x); column++)
      add({ z, x: ((column % n) + n) % n, y }, Math.hypot(column + 0.5 - centre.x, y + 0.5 - centre.y));
  view.sort((a, b) => a.distance - b.distance);
  for (let w = 0; w <= WORLD_ZOOMS; w++)
    for (let y = 0; y < 2 ** w; y++) for (let x = 0; x < 2 ** w; x++) add({ z: w, x, y }, Number.POSITIVE_INFINITY);
  return view.map((v) => v.tile);
}

/**
 * Draws the opening tiles of OPENING_VIEW.product's newest frame of the past (the frame the console
 * shows first) with its default style into the renderer's cache of encoded tiles, one at a time so
 * a request never waits behind more than one of them. A tile drawn already is found in the cache,
 * so a pass within the same hour costs lookups only.
 */
export class OpeningView {
  private readonly tiles = openingTiles();
  private closed = false;
  /** the pass under way: one at a time */
  private pass: Promise<number> | null = null;

  constructor(
    private readonly renderer: TileRenderer,
    private readonly frames: FrameIndex,
    /** the catalog's product of that name, if this server serves it */
    private readonly product: ProductDef | undefined,
  ) {}

  /**
   * Draws the opening tiles of the frame shown at nowMs (or finds them drawn); the number of tiles
   * done, fewer if closed meanwhile. While a pass is under way, that pass is the answer.
   */
  draw(nowMs: number): Promise<number> {
    this.pass ??= this.drawFrame(nowMs).finally(() => (this.pass = null));
    return this.pass;
  }

  private async drawFrame(nowMs: number): Promise<number> {
    const p = this.product;
    // A restricted product is drawn for the accounts granted it only: nothing to draw ahead for everyone.
    if (!p || p.access === 'restricted') return 0;
    const [frame] = productFrames(p, nowMs, Number.NEGATIVE_INFINITY, nowMs, 1, 'desc', this.frames);
    if (!frame) return 0;
    let done = 0;
    for (const tile of this.tiles) {
      if (this.closed) break;
      try {
        // Any account may see a public product's tiles with its default style: none is named.
        await this.renderer.render(await this.renderer.resolve({ accountId: '', frameId: frame.id, tile }));
      } catch (err) {
        // closing ends the compute threads under a tile being drawn
        if (this.closed) break;
        throw err;
      }
      done++;
    }
    return done;
  }

  /** Stops drawing: a pass under way ends after its tile (the service closes). */
  close(): void {
    this.closed = true;
  }
}
