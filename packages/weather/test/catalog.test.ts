import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELDCAST_NAMESPACE, NAMESPACE_DNS, uuidv5 } from '@fieldcast/ids';
import {
  CatalogError,
  catalogFromYaml,
  createCatalog,
  defaultStyles,
  DEFAULT_FORECAST_RUNS,
  forecastId,
  forecastValidTimes,
  frameId,
  loadCatalog,
  maskAttributeName,
  maskAttributeValue,
  productRecord,
  productRun,
  recordAttributeName,
  runLifeCycle,
  runStatusAt,
  SYNTHETIC_HORIZON_HOURS,
  transferProductRecord,
} from '../src/catalog/index.js';

const H = 3_600_000;
const NOW = Date.UTC(2025, 5, 15, 10, 20);

describe('uuidv5', () => {
  it('matches the RFC 4122 / Python uuid5 reference value', () => {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')
    expect(uuidv5('python.org', NAMESPACE_DNS)).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });
  it('derives stable ids in the Fieldcast namespace', () => {
    expect(FIELDCAST_NAMESPACE).toBe(uuidv5('https://fieldcast.dev/ids', '6ba7b811-9dad-11d1-80b4-00c04fd430c8'));
    const cat = createCatalog();
    expect(cat.product('air-temperature')?.id).toBe(uuidv5('product:air-temperature', FIELDCAST_NAMESPACE));
    expect(createCatalog().product('air-temperature')?.id).toBe(cat.product('air-temperature')?.id);
    expect(() => uuidv5('x', 'not-a-uuid')).toThrow(TypeError);
  });
});

describe('default catalog', () => {
  const cat = createCatalog();

  it('finds products, models and transfer products by id or name', () => {
    for (const p of cat.products()) {
      expect(cat.product(p.id)).toBe(p);
      expect(cat.product(p.id.toUpperCase())).toBe(p);
      expect(cat.product(p.name)).toBe(p);
    }
    for (const m of cat.models()) {
      expect(cat.model(m.id)).toBe(m);
      expect(cat.model(m.name)).toBe(m);
    }
    expect(cat.product('nope')).toBeUndefined();
    expect(cat.model('00000000-0000-5000-8000-000000000000')).toBeUndefined();
    expect(cat.transferProduct('surface-altitude-geotiff')?.format).toBe('GeoTIFF');
    const names = cat.products().map((p) => p.name);
    for (const n of [
      'air-temperature',
      'precipitation-rate',
      'growing-degree-days',
      'relative-humidity',
      'evapotranspiration-short-crop',
      'surface-altitude',
    ])
      expect(names).toContain(n);
    expect(new Set(cat.products().map((p) => p.id)).size).toBe(cat.products().length);
  });

  it('says of every daily product that its day is the local solar day (decision 0020), not a UTC or a civil day', () => {
    const daily = cat.products().filter((p) => p.aggregationPeriodInMinutes === 1440);
    expect(daily.map((p) => p.name)).toContain('growing-degree-days');
    for (const p of daily) expect([p.name, p.description]).toEqual([p.name, expect.stringContaining('over the local solar day')]);
  });

  it('writes spec 2.4 product records with time rules and frame links', () => {
    const air = productRecord(cat.product('air-temperature')!, NOW);
    expect(air).toMatchObject({
      name: 'air-temperature',
      source: 'synthetic',
      startTime: '2015-01-01T00:00:00Z',
      // the latest run published by 10:20 is 06Z's (published 09:30); its frames reach 384 h on
      endTime: new Date(Date.UTC(2025, 5, 15, 6) + 384 * H).toISOString().replace('.000Z', 'Z'),
      aggregationPeriodInMinutes: 0,
      frames: `/products/${air.id}/frames`,
      forecasts: `/products/${air.id}/forecasts`,
    });
    expect(air.coverage.type).toBe('Feature');
    expect(air.coverage.geometry.type).toBe('MultiPolygon');
    const gdd = productRecord(cat.product('growing-degree-days')!, NOW);
    expect(gdd.aggregationPeriodInMinutes).toBe(1440);
    expect(gdd.endTime).toBe('2025-06-22T00:00:00Z');
    const terrain = productRecord(cat.product('surface-altitude')!, NOW);
    expect(terrain.frames).toBeNull();
    expect(terrain.forecasts).toBeNull();
  });

  it('has a precipitation mask layer whose spaced name maps to the underscored style mask', () => {
    const p = cat.product('precipitation-rate')!;
    const layer = p.styleableLayers.find((l) => l.name === 'precipitation_type')!;
    expect(layer.attributes.map((a) => [a.name, a.value])).toEqual([
      ['rain', 1],
      ['snow', 2],
      ['freezing rain', 3],
      ['sleet', 4],
    ]);
    expect(layer.attributes.filter((a) => a.name.includes(' ')).map((a) => a.name)).toEqual(['freezing rain']);
    const masks = defaultStyles(p).flatMap((s) => s.colorizers.flatMap((c) => c.mask?.attributes ?? []));
    expect(masks).toContain('freezing_rain');
    expect(masks).not.toContain('freezing rain');
    expect(maskAttributeName('freezing rain')).toBe('freezing_rain');
    expect(recordAttributeName(layer, 'freezing_rain')).toBe('freezing rain');
    expect(maskAttributeValue(layer, 'freezing_rain')).toBe(3);
    expect(maskAttributeValue(layer, 'hail')).toBeUndefined();
  });

  it('gives every product default styles with stable ids', () => {
    for (const p of cat.products()) {
      const styles = defaultStyles(p);
      expect(styles.length).toBeGreaterThan(0);
      for (const s of styles) {
        expect(s).toMatchObject({ isDefault: true, productId: p.id });
        expect(s.id).toBe(uuidv5(`style:${p.name}:${s.name}`, FIELDCAST_NAMESPACE));
        expect(['linear', 'discrete']).toContain(s.colorizers[0]!.defaultMode);
      }
    }
  });

  it('names frames by product and valid time', () => {
    const p = cat.product('air-temperature')!;
    expect(frameId(p, Date.UTC(2025, 0, 1, 1))).toBe(frameId(p, Date.UTC(2025, 0, 1, 1)));
    expect(frameId(p, Date.UTC(2025, 0, 1, 1))).not.toBe(frameId(p, Date.UTC(2025, 0, 1, 2)));
  });

  it('runs the default model and forecast products on one schedule, to the synthetic horizon', () => {
    const m = cat.model('synthetic-global')!;
    const p = cat.product('air-temperature')!;
    expect(DEFAULT_FORECAST_RUNS).toEqual({ everyHours: 6, publishDelayMinutes: 210, retentionHours: 168 });
    expect(m).toMatchObject({ runEveryHours: 6, publishDelayMinutes: 210, retentionHours: 168, horizonHours: SYNTHETIC_HORIZON_HOURS });
    expect(p.forecastRuns).toEqual(DEFAULT_FORECAST_RUNS);
    expect(p.horizonHours).toBe(384);
    const init = Date.UTC(2025, 5, 15, 6);
    expect(forecastId(m, init)).toBe(forecastId(m, Date.UTC(2025, 5, 15, 6)));
    const valid = forecastValidTimes(m, init);
    expect(valid.length).toBe(385);
    expect(valid[384]).toBe(init + 384 * H);
    expect(m.variables.find((v) => v.name === 'temperature')).toMatchObject({ variable: 'air_temperature', unit: { label: '°C' } });
    // the product's run and the model's run of one init time live the same life
    const { id: _id, ...productLife } = productRun(p, init);
    expect(productLife).toEqual(runLifeCycle(init, m));
  });
});

describe('run life cycle (decision 0202)', () => {
  const init = Date.UTC(2025, 5, 15, 6);
  const life = runLifeCycle(init, { publishDelayMinutes: 210, retentionHours: 168 });

  it('is INCOMPLETE from a quarter of the publication delay, COMPLETE at publication, EXPIRED after retention', () => {
    expect(life).toEqual({
      initMs: init,
      producingMs: init + 52.5 * 60_000,
      creationMs: init + 210 * 60_000,
      expirationMs: init + 168 * H,
    });
    expect(runStatusAt(life, init - 1)).toBeNull();
    expect(runStatusAt(life, init)).toBe('INITIALIZING');
    // the model area's rule: no valid time yet at the start of the delay
    expect(runStatusAt(life, init + 52 * 60_000)).toBe('INITIALIZING');
    expect(runStatusAt(life, init + 52.5 * 60_000)).toBe('INCOMPLETE');
    expect(runStatusAt(life, init + 210 * 60_000 - 1)).toBe('INCOMPLETE');
    expect(runStatusAt(life, init + 210 * 60_000)).toBe('COMPLETE');
    expect(runStatusAt(life, init + 168 * H)).toBe('EXPIRED');
  });
});

describe('default catalog, transfer products', () => {
  const cat = createCatalog();

  it('describes transfer products per spec 2.5', () => {
    const recs = cat.transferProducts().map(transferProductRecord);
    expect(recs.find((r) => r.name === 'air-temperature-hourly-netcdf')).toEqual({
      name: 'air-temperature-hourly-netcdf',
      datasets: '/products/air-temperature-hourly-netcdf/datasets',
      format: 'NetCDF',
    });
    for (const r of recs) expect(['GeoTIFF', 'NetCDF']).toContain(r.format);
  });
});

describe('catalog override', () => {
  it('patches, adds and removes entries from YAML', () => {
    const cat = catalogFromYaml(`
products:
  - name: air-temperature
    description: Patched description
  - name: soil-moisture
    description: Volumetric soil moisture
    contentType: soil
    source: my-store
    variable: null
    aggregationPeriodInMinutes: 1440
    cadenceMinutes: 1440
    startTime: "2020-01-01T00:00:00Z"
    horizonHours: 0
    coverage:
      type: Feature
      properties: {}
      geometry:
        type: MultiPolygon
        coordinates: [[[[0, 0], [10, 0], [10, 10], [0, 0]]]]
    hasFrames: true
    hasForecasts: false
    styleableLayers:
      - { name: soil_moisture, type: raster, unit: { description: percent, label: "%" }, attributes: [] }
    defaultStyles:
      - name: soil-moisture-default
        description: default
        layerName: soil_moisture
        colorizers:
          - defaultColor: "rgba(0, 0, 0, 0)"
            defaultMode: linear
            stops: [{ value: 0, color: "#ffffff" }, { value: 50, color: "#0000ff" }]
remove:
  models: [synthetic-rapid]
`);
    expect(cat.product('air-temperature')?.description).toBe('Patched description');
    expect(cat.product('air-temperature')?.cadenceMinutes).toBe(60);
    expect(cat.product('soil-moisture')?.id).toBe(uuidv5('product:soil-moisture', FIELDCAST_NAMESPACE));
    expect(cat.model('synthetic-rapid')).toBeUndefined();
    expect(cat.model('synthetic-global')).toBeDefined();
  });

  it('rejects invalid overrides with the path of the problem', () => {
    expect(() => catalogFromYaml('products:\n  - name: air-temperature\n    aggregationPeriodInMinutes: -5\n')).toThrow(
      /product air-temperature\.aggregationPeriodInMinutes/,
    );
    expect(() => catalogFromYaml('products:\n  - name: brand-new\n')).toThrow(CatalogError);
    expect(() => catalogFromYaml('colours: []\n')).toThrow(CatalogError);
    expect(() => catalogFromYaml('remove:\n  products: [nope]\n')).toThrow(/unknown product nope/);
    expect(() => catalogFromYaml('products: [\n')).toThrow(/not valid YAML/);
    expect(() =>
      catalogFromYaml(`products:
  - name: precipitation-rate
    defaultStyles:
      - name: bad
        description: x
        layerName: precipitation_rate
        colorizers:
          - mask: { layerName: precipitation_type, attributes: [hail] }
            defaultColor: "#000000"
            defaultMode: discrete
            stops: [{ value: 1, color: "red" }]
`),
    ).toThrow(CatalogError);
  });

  it('loads the override from a file path given by the caller', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldcast-catalog-'));
    const file = join(dir, 'catalog.yaml');
    writeFileSync(file, 'transferProducts:\n  - name: surface-altitude-geotiff\n    format: NetCDF\n');
    const cat = await loadCatalog({ overridePath: file });
    expect(cat.transferProduct('surface-altitude-geotiff')?.format).toBe('NetCDF');
    expect((await loadCatalog()).transferProduct('surface-altitude-geotiff')?.format).toBe('GeoTIFF');
    await expect(loadCatalog({ overridePath: join(dir, 'missing.yaml') })).rejects.toThrow(CatalogError);
  });
});

describe('catalog bounds (docs/decisions/0398-catalog-bounds-do-not-wrap.md)', () => {
  const transfer = (bbox: number[], resolution = 5) => ({
    transferProducts: [{ name: 'air-temperature-hourly-netcdf', bbox, resolution }],
  });
  const coverage = (ring: number[][]) => ({
    products: [
      {
        name: 'air-temperature',
        coverage: { type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: [[ring]] } },
      },
    ],
  });

  it('refuses a transfer bbox crossing the antimeridian, naming the product and the two halves to write instead', () => {
    expect(() => createCatalog(transfer([170, -10, -170, 10]))).toThrow(CatalogError);
    expect(() => createCatalog(transfer([170, -10, -170, 10]))).toThrow(
      /transfer product air-temperature-hourly-netcdf\.bbox: .*antimeridian.*\[170, -10, 180, 10\] and \[-180, -10, -170, 10\]/,
    );
  });

  it('refuses a transfer bbox with south and north swapped, or without width or height', () => {
    expect(() => createCatalog(transfer([-100, 50, -90, 40]))).toThrow(
      /transfer product air-temperature-hourly-netcdf\.bbox: south \(50\) is north of north \(40\)/,
    );
    expect(() => createCatalog(transfer([-100, 40, -100, 50]))).toThrow(/air-temperature-hourly-netcdf\.bbox: .*no width/);
    expect(() => createCatalog(transfer([-100, 40, -90, 40]))).toThrow(/air-temperature-hourly-netcdf\.bbox: .*no height/);
  });

  it('takes a transfer bbox ending at the antimeridian', () => {
    expect(createCatalog(transfer([170, -10, 180, 10])).transferProduct('air-temperature-hourly-netcdf')?.bbox).toEqual([
      170, -10, 180, 10,
    ]);
  });

  it('refuses a transfer bbox whose sides are not whole multiples of the resolution, naming the product and the nearest bbox that is', () => {
    // A dataset's grid keeps west and north and fits whole cells eastward and southward (docs/decisions/0162-dataset-grids-and-names.md).
    expect(() => createCatalog(transfer([-100, 40, -90.3, 50], 0.5))).toThrow(CatalogError);
    expect(() => createCatalog(transfer([-100, 40, -90.3, 50], 0.5))).toThrow(
      /transfer product air-temperature-hourly-netcdf\.bbox: .*\[-100, 40, -90\.3, 50\].*resolution 0\.5.*nearest.*\[-100, 40, -90\.5, 50\]/,
    );
    expect(() => createCatalog(transfer([0, 0.3, 10, 10], 0.25))).toThrow(/nearest.*\[0, 0\.25, 10, 10\]/);
    // a side shorter than a cell gets one cell
    expect(() => createCatalog(transfer([0, 0, 0.1, 10], 0.25))).toThrow(/nearest.*\[0, 0, 0\.25, 10\]/);
    // the nearest bbox stays inside longitude and latitude
    expect(() => createCatalog(transfer([170.05, -10, 180, 10], 0.1))).toThrow(/nearest.*\[170\.05, -10, 179\.95, 10\]/);
    expect(() => createCatalog(transfer([0, -90, 10, -0.05], 0.1))).toThrow(/nearest.*\[0, -89\.95, 10, -0\.05\]/);
    // the globe, the bbox by default, at a resolution it is no whole multiple of
    expect(() => createCatalog({ transferProducts: [{ name: 'air-temperature-hourly-netcdf', resolution: 0.7 }] })).toThrow(
      /air-temperature-hourly-netcdf\.bbox: the bbox \(the globe by default\) .*nearest.*\[-180, -89\.9, 179\.8, 90\]/,
    );
  });

  it('takes a transfer bbox of whole tenths of a degree at 0.1, though tenths are not exact in binary', () => {
    for (const bbox of [
      [0.2, 0.1, 1.3, 0.7],
      [-10.3, 35.7, 2.1, 44.9],
      [-180, -90, 180, 90],
    ])
      expect(createCatalog(transfer(bbox, 0.1)).transferProduct('air-temperature-hourly-netcdf')?.bbox).toEqual(bbox);
    expect(createCatalog(transfer([-0.3, 0, 0.6, 0.9], 0.3)).transferProduct('air-temperature-hourly-netcdf')?.resolution).toBe(0.3);
  });

  it('refuses a product coverage whose edge goes the long way round, or outside longitude and latitude', () => {
    const wrapped = [
      [170, -10],
      [-170, -10],
      [-170, 10],
      [170, 10],
      [170, -10],
    ];
    expect(() => createCatalog(coverage(wrapped))).toThrow(
      /product air-temperature\.coverage\..*spans 340 degrees of longitude.*cut at 180/,
    );
    const beyond = [
      [170, -10],
      [190, -10],
      [190, 10],
      [170, 10],
      [170, -10],
    ];
    expect(() => createCatalog(coverage(beyond))).toThrow(/product air-temperature\.coverage\./);
    const pole = [
      [0, 80],
      [10, 80],
      [10, 95],
      [0, 80],
    ];
    expect(() => createCatalog(coverage(pole))).toThrow(/product air-temperature\.coverage\./);
    // the globe, and each half of a coverage cut at 180, are as they read
    expect(createCatalog().product('air-temperature')?.coverage.geometry.coordinates[0]![0]![1]).toEqual([180, -90]);
    const half = [
      [170, -10],
      [180, -10],
      [180, 10],
      [170, 10],
      [170, -10],
    ];
    expect(createCatalog(coverage(half)).product('air-temperature')?.coverage.geometry.coordinates[0]![0]).toEqual(half);
  });
});
