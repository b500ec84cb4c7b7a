import { OPENING_VIEW } from '@fieldcast/console/opening-view';
import { createCatalog, FrameIndex, lonLatToTileXY, type ProductDef, productFrames } from '@fieldcast/weather';
import { OpeningView, openingTiles } from '../src/domain/opening-view.js';
import { sampleLayer } from '../src/domain/layers.js';
import { tileCache } from '../src/domain/sample-cache.js';
import { DefaultStyles } from '../src/domain/styles.js';
import { TileRenderer } from '../src/domain/tiles.js';
import { FunctionSource } from './function-source.js';

/*
 * The tiles a map client opens on are drawn for each new frame before anyone asks
 * (docs/decisions/0356-opening-view-drawn-ahead.md): the world at zooms 0 to 2 and the console's
 * opening view, for the newest frame of the past of the console's product.
 */
const HOUR_MS = 3_600_000;
const catalog = createCatalog();
const product = catalog.product(OPENING_VIEW.product)!;
const key = (t: { z: number; x: number; y: number }) => `${t.z}/${t.x}/${t.y}`;
const nowMs = Date.UTC(2026, 11, 5, 12, 40);
/** One frame index for the file; its growth is stopped at the end, so nothing of it outlives the tests. */
const frames = new FrameIndex(catalog.products());
afterAll(() => frames.stop());

/** A renderer on a FunctionSource whose clock the test moves (`clock.ms`), recording the tiles it samples. */
function renderer() {
  const clock = { ms: nowMs };
  const weather = new FunctionSource({ air_temperature: (lon, lat) => lat / 3 + lon / 20 }, 1);
  const drawn: string[] = [];
  const none = { get: async () => null, byName: async () => null };
  const r = new TileRenderer({
    defaults: new DefaultStyles(catalog),
    weather,
    frames,
    styles: none,
    grants: { isGranted: async () => false },
    cache: tileCache<Float32Array>(64 << 20),
    pngs: tileCache<Buffer>(32 << 20),
    now: () => new Date(clock.ms),
    sampler: {
      sample: (layer, t, tile, mode) => {
        drawn.push(`${new Date(t).toISOString()} ${key(tile)}`);
        return sampleLayer(weather, layer, t, tile, mode);
      },
    },
  });
  return { r, drawn, clock };
}

describe('openingTiles', () => {
  const tiles = openingTiles();

  it('holds every tile of zooms 0 to 2 and the tiles around the opening view a full HD screen shows, each once', () => {
    expect(new Set(tiles.map(key)).size).toBe(tiles.length);
    for (let z = 0; z <= 2; z++) expect(tiles.filter((t) => t.z === z)).toHaveLength(4 ** z);
    const z = OPENING_VIEW.zoom;
    const centre = lonLatToTileXY(OPENING_VIEW.longitude, OPENING_VIEW.latitude, z);
    const around = tiles.filter((t) => t.z === z);
    // 1920 x 1080 pixels: 7.5 columns and 4.2 rows of 256-pixel tiles, so 8 or 9 columns by 5 or 6 rows.
    expect(around.length).toBeGreaterThanOrEqual(8 * 5);
    expect(around.length).toBeLessThanOrEqual(9 * 6);
    expect(around.map(key)).toContain(`${z}/${Math.floor(centre.x)}/${Math.floor(centre.y)}`);
    // columns wrap around the world (the console's map jumps to the world's copy in view)
    const columns = (d: number) => Math.min(Math.abs(d), 2 ** z - Math.abs(d));
    for (const t of around) {
      expect(columns(t.x + 0.5 - centre.x)).toBeLessThanOrEqual(1920 / 2 / 256 + 0.5);
      expect(Math.abs(t.y + 0.5 - centre.y)).toBeLessThanOrEqual(1080 / 2 / 256 + 0.5);
    }
    expect(new Set(tiles.map((t) => t.z))).toEqual(new Set([0, 1, 2, z]));
    // Drawn in the order a browser opening the console asks: its view from the centre out, then the world.
    expect(key(tiles[0]!)).toBe(`${z}/${Math.floor(centre.x)}/${Math.floor(centre.y)}`);
    expect(tiles.findIndex((t) => t.z !== z)).toBe(around.length);
  });
});

describe('OpeningView', () => {
  const shownMs = Date.UTC(2026, 11, 5, 12); // the newest frame of the past at 12:40

  it('draws each opening tile of the newest frame of the past once, then finds them in the cache', async () => {
    const { r, drawn, clock } = renderer();
    const opening = new OpeningView(r, frames, product);
    expect(await opening.draw(nowMs)).toBe(openingTiles().length);
    expect(drawn.sort()).toEqual(
      openingTiles()
        .map((t) => `${new Date(shownMs).toISOString()} ${key(t)}`)
        .sort(),
    );
    // A request for one of them is answered from the cache of encoded tiles: nothing is drawn.
    const tile = openingTiles()[0]!;
    await r.render(
      await r.resolve({ accountId: 'someone', frameId: productFrames(product, nowMs, shownMs, shownMs, 1, 'desc', frames)[0]!.id, tile }),
    );
    expect(await opening.draw(nowMs + 60_000)).toBe(openingTiles().length);
    expect(drawn).toHaveLength(openingTiles().length);
    // The next hour, the next frame.
    clock.ms = nowMs + HOUR_MS;
    await opening.draw(clock.ms);
    expect(drawn.filter((d) => d.startsWith(new Date(shownMs + HOUR_MS).toISOString()))).toHaveLength(openingTiles().length);
  });

  it('draws nothing once closed, for a product it does not serve, or for a restricted one', async () => {
    const { r, drawn } = renderer();
    const closed = new OpeningView(r, frames, product);
    closed.close();
    expect(await closed.draw(nowMs)).toBe(0);
    expect(await new OpeningView(r, frames, undefined).draw(nowMs)).toBe(0);
    const restricted: ProductDef = { ...product, access: 'restricted' };
    expect(await new OpeningView(r, frames, restricted).draw(nowMs)).toBe(0);
    expect(drawn).toEqual([]);
  });

  it('answers a pass asked for while one is under way with that pass', async () => {
    const { r, drawn } = renderer();
    const opening = new OpeningView(r, frames, product);
    const pass = opening.draw(nowMs);
    expect(opening.draw(nowMs)).toBe(pass);
    await pass;
    expect(drawn).toHaveLength(openingTiles().length);
  });

  it('stops between tiles when closed during a pass', async () => {
    const { r, drawn } = renderer();
    const opening = new OpeningView(r, frames, product);
    const pass = opening.draw(nowMs);
    opening.close();
    expect(await pass).toBeLessThan(openingTiles().length);
    expect(drawn.length).toBeLessThan(openingTiles().length);
  });
});
