import { fieldcastId } from '@fieldcast/ids';
import { NotFoundError } from '@fieldcast/kit';
import { oneSyncedFrame } from '@fieldcast/runtime/testing';
import { createCatalog, FrameIndex, frameZoomLevels, SyntheticSource } from '@fieldcast/weather';
import { Platform } from '../src/domain/platform.js';

/*
 * A synced frame is not made to wait for the catalog's frame index (0315, 0321): the index says
 * it names no such frame only once it holds every frame of ten years, seconds into a process,
 * while the synced products name their frames at once.
 */
const HOUR_MS = 3_600_000;
const catalog = createCatalog();
const air = catalog.product('air-temperature')!;
const nowMs = Date.UTC(2026, 11, 5, 12, 40);
const weather = new SyntheticSource();
const { frame: syncedFrame, synced } = oneSyncedFrame(air, Date.UTC(2026, 11, 5, 11), weather);
const SYNCED_ID = syncedFrame.id;
const NONE = new Set<string>();

let frames: FrameIndex;
let platform: Platform;
beforeEach(() => {
  frames = new FrameIndex(catalog.products());
  platform = new Platform(catalog, frames, weather, frameZoomLevels(weather.grid.dLon), synced);
});
afterEach(() => frames.stop());

it('reads a synced frame while the frame index still grows', async () => {
  const frame = await platform.frame(SYNCED_ID, NONE, nowMs);
  expect(frame).toMatchObject({ id: SYNCED_ID, validTime: '2026-12-05T11:00:00Z', forecast: null });
  // air temperature alone has an analysis frame an hour since its start: the index is far from whole
  const airFrames = (nowMs - Date.parse(air.startTime)) / HOUR_MS;
  expect(frames.count).toBeLessThan(airFrames);
});

it('reads a recent catalog frame from the index, and 404s an id neither names once the index is whole', async () => {
  const [recent] = await platform.productFrames('air-temperature', NONE, { end: nowMs, limit: 1, sort: 'desc' }, nowMs);
  expect((await platform.frame(recent!.id, NONE, nowMs)).id).toBe(recent!.id);
  const unknown = fieldcastId('frame', 'no frame');
  await expect(platform.frame(unknown, NONE, nowMs)).rejects.toBeInstanceOf(NotFoundError);
  expect(frames.count).toBeGreaterThan((nowMs - Date.parse(air.startTime)) / HOUR_MS);
});
