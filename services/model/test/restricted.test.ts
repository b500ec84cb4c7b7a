import { fieldcastId } from '@fieldcast/ids';
import { eventually, useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, forecastVariableId } from '@fieldcast/weather';
import { modelService } from '../src/definition.js';
import { get, grantRestricted, TestClock } from './helpers.js';

/*
 * A model variable over a restricted product's variable (the default catalog's dewpoint) is served
 * only to the accounts the platform granted that product (docs/decisions/0429-model-variables-follow-product-grants.md);
 * the platform's grant messages are published here as its relay would.
 */
const clock = new TestClock(Date.parse('2026-05-01T10:00:00Z'));
const t = useTestFleet([modelService], { now: clock.now });
const app = () => t.fleet.app('model');
const RUN_06 = fieldcastId('forecast', 'synthetic-global', '2026-05-01T06:00:00Z');
const DEW = forecastVariableId(RUN_06, 'dewPoint');
const POINT = '42.0308/-93.6319';

beforeEach(() => clock.set('2026-05-01T10:00:00Z'));

const names = async (account: typeof t.alice, path: string): Promise<string[]> => {
  const res = await get(app(), account, path);
  expect(res.status).toBe(200);
  return (res.body as { name: string }[]).map((v) => v.name);
};
const latest = (account: typeof t.alice) => get(app(), account, `/models/synthetic-global/latest-forecast/timeseries/${POINT}?limit=2`);

describe('a model variable over a restricted product’s variable', () => {
  it('does not exist for an account not granted the product, wherever a variable is named or listed', async () => {
    expect(
      createCatalog()
        .products()
        .find((p) => p.access === 'restricted')?.variable,
    ).toBe('dew_point_temperature');
    for (const path of ['/models/synthetic-global/variables', `/forecasts/${RUN_06}/variables`]) {
      const listed = await names(t.bob, path);
      expect(listed).toContain('temperature');
      expect(listed).not.toContain('dewPoint');
    }

    const byId = await get(app(), t.bob, `/variables/${DEW}`);
    const unknownId = fieldcastId('forecast-variable', 'no-such');
    const unknown = await get(app(), t.bob, `/variables/${unknownId}`);
    expect([byId.status, byId.body.id]).toEqual([404, 'variable_does_not_exist']);
    expect(byId.body.message).toBe(unknown.body.message.replace(unknownId, DEW));

    const series = await get(app(), t.bob, `/forecasts/${RUN_06}/variables/dewPoint/timeseries/${POINT}`);
    const unknownName = await get(app(), t.bob, `/forecasts/${RUN_06}/variables/noSuch/timeseries/${POINT}`);
    expect([series.status, series.body.id]).toEqual([404, 'variable_does_not_exist']);
    expect(series.body.message).toBe(unknownName.body.message.replace('noSuch', 'dewPoint'));

    const all = await latest(t.bob);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body.variables as object)).not.toContain('dewPoint');
    expect(Object.keys(all.body.variables as object)).toContain('temperature');
    const csv = await get(app(), t.bob, `/models/synthetic-global/latest-forecast/timeseries/${POINT}?limit=2`).set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.text.split('\r\n')[0]).not.toContain('dewPoint');
  });

  it('is served once granted, to that account only, and no longer once revoked', async () => {
    await grantRestricted(t.fleet, t.alice, true);
    await eventually(async () => expect(await names(t.alice, '/models/synthetic-global/variables')).toContain('dewPoint'));
    expect(await names(t.alice, `/forecasts/${RUN_06}/variables`)).toContain('dewPoint');
    expect((await get(app(), t.alice, `/variables/${DEW}`)).status).toBe(200);
    expect((await get(app(), t.alice, `/forecasts/${RUN_06}/variables/dewPoint/timeseries/${POINT}?limit=2`)).status).toBe(200);
    expect(Object.keys((await latest(t.alice)).body.variables as object)).toContain('dewPoint');

    expect(await names(t.bob, '/models/synthetic-global/variables')).not.toContain('dewPoint');
    expect((await get(app(), t.bob, `/forecasts/${RUN_06}/variables/dewPoint/timeseries/${POINT}?limit=2`)).status).toBe(404);

    await grantRestricted(t.fleet, t.alice, false);
    await eventually(async () => expect(await names(t.alice, '/models/synthetic-global/variables')).not.toContain('dewPoint'));
    // the series answered while the grant held is not served from the cache after it
    expect((await get(app(), t.alice, `/forecasts/${RUN_06}/variables/dewPoint/timeseries/${POINT}?limit=2`)).status).toBe(404);
    expect(Object.keys((await latest(t.alice)).body.variables as object)).not.toContain('dewPoint');
  }, 60_000);
});
