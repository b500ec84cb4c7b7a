import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog } from '@fieldcast/weather';
import { binary, countingSource, pathOf, TestClock, testTransferService } from './helpers.js';
import { readTiff } from './tiff-reader.js';

/*
 * A GeoTIFF's extent is the dataset record's `bounds`, to the bit (docs/interface.md §9): a GIS
 * client comparing the two, or clipping files of one product to the record's bounds, finds them
 * equal. Bounds of tenths put binary noise in the cell centres (5.15 is not 5.1 + 0.05 in
 * float64), which edges derived back from the centres would carry into the file.
 */
const ALPS: [number, number, number, number] = [5.1, 45.3, 11.7, 47.9];
const clock = new TestClock();
const { source } = countingSource(clock);
const catalog = createCatalog({
  transferProducts: [
    {
      ...createCatalog()
        .transferProducts()
        .find((p) => p.name === 'air-temperature-daily-max-geotiff')!,
      bbox: ALPS,
      resolution: 0.1,
    },
  ],
});
const ctx = useTestFleet([testTransferService()], { weather: source, now: clock.now, catalog });

it("puts the GeoTIFF's north-west corner and pixel size at the record's bounds and resolution", async () => {
  const list = await request(ctx.fleet.app('transfer'))
    .get('/products/air-temperature-daily-max-geotiff/datasets?date=2024-06-01')
    .set('Authorization', ctx.alice.auth);
  expect(list.status).toBe(200);
  const d = list.body[0] as { downloadUrl: string; bounds: number[]; resolution: number; width: number; height: number };
  expect(d.bounds).toEqual(ALPS);
  const file = await request(ctx.fleet.app('transfer')).get(pathOf(d.downloadUrl)).buffer(true).parse(binary);
  const image = readTiff(file.body as Buffer);
  const [west, south, east, north] = d.bounds;
  expect([image.width, image.height]).toEqual([d.width, d.height]);
  expect(image.tags.get(33922)).toEqual([0, 0, 0, west, north, 0]);
  expect(image.tags.get(33550)).toEqual([d.resolution, d.resolution, 0]);
  // The far corner, as GDAL computes it from the geotransform, within a rounding of the record's.
  expect(west! + d.width * d.resolution).toBeCloseTo(east!, 9);
  expect(north! - d.height * d.resolution).toBeCloseTo(south!, 9);
});
