import { oneSyncedFrame } from '@fieldcast/runtime/testing';
import { createCatalog, FrameIndex, type SyncedProducts } from '@fieldcast/weather';
import { tileCache } from '../src/domain/sample-cache.js';
import { TileProducts } from '../src/domain/products.js';
import { DefaultStyles } from '../src/domain/styles.js';
import { TileRenderer } from '../src/domain/tiles.js';
import { FunctionSource } from './function-source.js';

/*
 * A synced frame's tile is not made to wait for the catalog's frame index (0315, 0321): the index
 * says it names no such frame only once it holds every frame of ten years, seconds into a process,
 * while the synced products name their frames at once.
 */
const HOUR_MS = 3_600_000;
const catalog = createCatalog();
const air = catalog.product('air-temperature')!;
const nowMs = Date.UTC(2026, 11, 5, 12, 40);
const frames = new FrameIndex(catalog.products());
afterAll(() => frames.stop());

const weather = new FunctionSource({ air_temperature: (lon, lat) => lat / 3 + lon / 20 }, 1);
const { frame: syncedFrame, synced } = oneSyncedFrame(air, Date.UTC(2026, 11, 5, 11), weather);
const SYNCED_ID = syncedFrame.id;

it('resolves a synced frame’s tile while the frame index still grows', async () => {
  const defaults = new DefaultStyles(catalog);
  const renderer = new TileRenderer({
    defaults,
    weather,
    frames,
    styles: { get: async () => null, byName: async () => null },
    grants: { isGranted: async () => false },
    cache: tileCache<Float32Array>(64 << 20),
    now: () => new Date(nowMs),
    products: new TileProducts(catalog, defaults, synced, () => new Date(nowMs)),
  });
  const resolved = await renderer.resolve({ accountId: 'alice', frameId: SYNCED_ID, tile: { z: 0, x: 0, y: 0 } });
  expect(resolved.frame.id).toBe(SYNCED_ID);
  // air temperature alone has an analysis frame an hour since its start: the index is far from whole
  const airFrames = (nowMs - Date.parse(air.startTime)) / HOUR_MS;
  expect(frames.count).toBeLessThan(airFrames);
});

it("asks the synced products at the area's clock, so a run past its expirationTime on that clock is not drawn (decision 0363)", async () => {
  const asked: number[] = [];
  const recording = {
    refresh: async (at: number) => void asked.push(at),
    find: async (_id: string, at: number) => void asked.push(at),
    product: () => undefined,
  } as unknown as SyncedProducts;
  const products = new TileProducts(catalog, new DefaultStyles(catalog), recording, () => new Date(nowMs));
  await products.product('gfs-0p25.air-temperature');
  await products.syncedFrame(SYNCED_ID);
  await products.syncedFrames('gfs-0p25.air-temperature', 10);
  expect(asked).toEqual([nowMs, nowMs, nowMs]);
});
