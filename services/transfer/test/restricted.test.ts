import request from 'supertest';
import { eventually, publishProductGrant, type TestAccount, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog } from '@fieldcast/weather';
import { restrictingProducts } from '../src/domain/access.js';
import { binary, countingSource, IOWA, pathOf, PRODUCT, TestClock, testCatalog, testTransferService } from './helpers.js';

// Transfer products over a restricted product's variable (docs/decisions/0397-transfer-products-follow-product-grants.md):
// the platform's grant messages are published here as the platform's relay would.
const DEW = 'dew-point-hourly-netcdf';
const catalog = createCatalog({
  transferProducts: [
    ...testCatalog()
      .transferProducts()
      .map((p) => ({ name: p.name, bbox: p.bbox, resolution: p.resolution })),
    {
      name: DEW,
      description: 'Hourly 2 m dewpoint temperature, one NetCDF file per day',
      format: 'NetCDF',
      variable: 'dew_point_temperature',
      cadenceMinutes: 1440,
      bbox: IOWA,
      resolution: 0.25,
    },
  ],
});
const restricted = catalog.products().find((p) => p.access === 'restricted')!;
const clock = new TestClock();
const { source } = countingSource(clock);
const t = useTestFleet([testTransferService()], { weather: source, now: clock.now, catalog });
const app = () => t.fleet.app('transfer');

beforeEach(() => {
  clock.ms = Date.UTC(2026, 5, 10, 12, 30);
});

/** Publishes a grant's state of the restricted product as the platform does. */
const publish = (account: TestAccount, granted: boolean) => publishProductGrant(t.fleet, account.id, restricted.id, granted);

const get = (account: TestAccount, path: string) => request(app()).get(path).set('Authorization', account.auth);
const names = async (account: TestAccount) => ((await get(account, '/products')).body as { name: string }[]).map((p) => p.name);
const datasets = (account: TestAccount) => get(account, `/products/${DEW}/datasets?date=2024-06-01`);
const file = (path: string) => request(app()).get(path).buffer(true).parse(binary);

describe('which catalog products restrict a transfer product', () => {
  it('are the restricted products whose variable it carries, first or additional', () => {
    const ids = (def: Parameters<typeof restrictingProducts>[1]) => restrictingProducts(catalog, def);
    expect(ids(catalog.transferProduct(DEW)!)).toEqual([restricted.id]);
    expect(ids({ ...catalog.transferProduct(PRODUCT.hourly)!, additionalVariables: ['dew_point_temperature'] })).toEqual([restricted.id]);
    expect(ids(catalog.transferProduct(PRODUCT.hourly)!)).toEqual([]);
  });
});

describe('a transfer product over a restricted variable', () => {
  it('does not exist for an account the platform has not granted the variable’s product', async () => {
    expect(await names(t.alice)).not.toContain(DEW);
    expect(await names(t.alice)).toContain(PRODUCT.hourly);
    const listed = await datasets(t.alice);
    const unknown = await get(t.alice, '/products/no-such-product/datasets?date=2024-06-01');
    expect([listed.status, listed.body.id]).toEqual([404, 'product_does_not_exist']);
    expect(listed.body.message).toBe(unknown.body.message.replace('no-such-product', DEW));
    const basic = await get(t.alice, `/products/${DEW}/datasets/${DEW}_20240601.nc`);
    expect([basic.status, basic.body.id]).toEqual([404, 'product_does_not_exist']);
  });

  it('is listed and downloadable once granted, to that account only, and its signed links stop on revocation', async () => {
    await publish(t.alice, true);
    await eventually(async () => expect(await names(t.alice)).toContain(DEW));
    const listed = await datasets(t.alice);
    expect(listed.status).toBe(200);
    const link = pathOf((listed.body as { downloadUrl: string }[])[0]!.downloadUrl);
    const downloaded = await file(link);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers['content-type']).toBe('application/x-netcdf');

    expect(await names(t.bob)).not.toContain(DEW);
    expect((await datasets(t.bob)).status).toBe(404);
    expect((await get(t.bob, new URL(link, 'http://x').pathname)).status).toBe(404);

    await publish(t.alice, false);
    await eventually(async () => expect(await names(t.alice)).not.toContain(DEW));
    // the link signed while the grant held names an account that no longer has it
    const revoked = await file(link);
    expect([revoked.status, JSON.parse(revoked.body.toString()).id]).toEqual([404, 'product_does_not_exist']);
    expect((await request(app()).head(link)).status).toBe(404);
    expect((await datasets(t.alice)).status).toBe(404);
  }, 60_000);
});
