import { createCatalog, productRunModel } from '../src/index.js';

/*
 * A product's forecast runs are a model's runs (docs/decisions/0496-product-runs-are-a-models-runs.md):
 * the model of the product's source whose cycle is the product's run schedule.
 */
describe('the model whose runs a product’s runs are', () => {
  it('is synthetic-global for every default product with forecasts, and none for the others', () => {
    const catalog = createCatalog();
    for (const p of catalog.products()) {
      expect([p.name, productRunModel(p, catalog.models())?.name ?? null]).toEqual([p.name, p.hasForecasts ? 'synthetic-global' : null]);
    }
  });

  it('is none for a product whose schedule no model of its source runs, or whose horizon outreaches it', () => {
    const catalog = createCatalog({
      products: [
        { name: 'air-temperature', forecastRuns: { everyHours: 12, publishDelayMinutes: 210, retentionHours: 168 } },
        { name: 'dew-point-temperature', horizonHours: 400 },
        { name: 'relative-humidity', source: 'my-store' },
      ],
    });
    for (const name of ['air-temperature', 'dew-point-temperature', 'relative-humidity']) {
      expect(productRunModel(catalog.product(name)!, catalog.models())).toBeNull();
    }
    expect(productRunModel(catalog.product('precipitation-rate')!, catalog.models())?.name).toBe('synthetic-global');
  });
});
