import request from 'supertest';
import { platformService } from '@fieldcast/platform';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { transferService } from '@fieldcast/transfer';
import { createCatalog } from '@fieldcast/weather';

/*
 * One product, one horizon (docs/decisions/0508-transfer-files-end-with-the-published-runs.md): a
 * transfer file's valid times end where the platform's frames of the product over its variable
 * end, the newest published run's last valid time
 * (docs/decisions/0120-product-frames-and-forecast-runs.md), not 16 days after the current hour.
 */
// 12:20Z: the 06Z run is the newest published (3.5 h after its init time); the 12Z run is not yet.
const NOW = Date.parse('2026-05-01T12:20:00Z');
const catalog = createCatalog();
const t = useTestFleet([platformService, transferService], { now: () => new Date(NOW), catalog });

const get = (area: string, path: string) => request(t.fleet.app(area)).get(path).set('Authorization', t.alice.auth);

/** The valid time of the platform product's last frame. */
async function lastFrame(product: string): Promise<string> {
  const res = await get('platform', `/products/${catalog.product(product)!.id}/frames?sort=desc&limit=1`);
  expect(res.status).toBe(200);
  return res.body[0].validTime as string;
}

/** The last valid time of the transfer product's datasets of a date, or the status the date is refused with. */
async function lastValidTime(product: string, date: string): Promise<string | number> {
  const res = await get('transfer', `/products/${product}/datasets?date=${date}`);
  if (res.status !== 200) return res.status;
  const last = res.body.at(-1) as { validTime?: string; validTimes?: string[] };
  return last.validTimes?.at(-1) ?? last.validTime!;
}

const nextDay = (iso: string) => new Date(Date.parse(iso.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10);

describe("a transfer product's last valid time is its platform product's last frame", () => {
  it.each([
    // hourly, 16-day horizon: the 06Z run's 384th hour, not the current hour's
    ['air-temperature-hourly-netcdf', 'air-temperature', '2026-05-17T06:00:00Z'],
    ['precipitation-rate-hourly-netcdf', 'precipitation-rate', '2026-05-17T06:00:00Z'],
    // daily, the agronomy products' 7-day horizon
    ['air-temperature-daily-max-geotiff', 'air-temperature-daily-max', '2026-05-08T00:00:00Z'],
  ])('%s ends with the frames of %s', async (transfer, product, expected) => {
    const frame = await lastFrame(product);
    expect(frame).toBe(expected);
    expect(await lastValidTime(transfer, frame.slice(0, 10))).toBe(frame);
    // the next day is past the end of the forecast, as the list's dates say
    expect(await lastValidTime(transfer, nextDay(frame))).toBe(400);
  });

  it('ends a product of two variables with the earlier of their products', async () => {
    const frame = await lastFrame('air-temperature-daily-min');
    expect(await lastValidTime('air-temperature-daily-extremes-netcdf', frame.slice(0, 10))).toBe(frame);
    expect(await lastValidTime('air-temperature-daily-extremes-netcdf', nextDay(frame))).toBe(400);
  });
});
