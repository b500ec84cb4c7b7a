/**
 * The code-defined default catalog: what a fresh embedded start serves with the synthetic world.
 * Ids are UUID v5 of "product:<name>" / "model:<name>" in the Fieldcast namespace, so they are
 * the same in every process and every release (renaming an entry changes its id).
 */
import { PRECIPITATION_TYPE_ATTRIBUTES, PRECIPITATION_TYPE_LAYER } from './precipitation-types.js';
import type { Colorizer, ForecastRunSchedule, ModelDef, ProductDef, TransferProductDef } from './schema.js';
import { SYNTHETIC_HORIZON_HOURS, SYNTHETIC_SOURCE_ID } from './sources.js';
import { fieldcastId } from '@fieldcast/ids';

/** Start of every synthetic product's frames (spec 4.1: data from the start of 2015). */
export const CATALOG_START = '2015-01-01T00:00:00Z';

/** Spec 4.1: degree days up to 7 days in the future. */
const AGRONOMY_HORIZON_HOURS = 7 * 24;

/**
 * The run schedule of every default forecast product: that of the synthetic-global model below,
 * four runs a day published 3.5 h after their init time and kept 7 days
 * (docs/decisions/0120-product-frames-and-forecast-runs.md).
 */
export const DEFAULT_FORECAST_RUNS: ForecastRunSchedule = { everyHours: 6, publishDelayMinutes: 210, retentionHours: 7 * 24 };

/** North America, west of the Aleutians' east end to the Atlantic coast of Newfoundland, 10 to 75 degrees north. */
function northAmericaCoverage(): ProductDef['coverage'] {
  return {
    type: 'Feature',
    properties: { region: 'North America' },
    geometry: {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [-170, 10],
            [-50, 10],
            [-50, 75],
            [-170, 75],
            [-170, 10],
          ],
        ],
      ],
    },
  };
}

export function productId(name: string): string {
  return fieldcastId('product', name);
}

export function modelId(name: string): string {
  return fieldcastId('model', name);
}

/** The whole globe as a GeoJSON Feature with a MultiPolygon (spec 2.4 coverage). */
export function globalCoverage(): ProductDef['coverage'] {
  return {
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [-180, -90],
            [180, -90],
            [180, 90],
            [-180, 90],
            [-180, -90],
          ],
        ],
      ],
    },
  };
}

function linear(stops: [number, string][], defaultColor = 'rgba(0, 0, 0, 0)'): Colorizer {
  return { defaultColor, defaultMode: 'linear', stops: stops.map(([value, color]) => ({ value, color })) };
}

function discrete(stops: [number, string][], defaultColor = 'rgba(0, 0, 0, 0)'): Colorizer {
  return { defaultColor, defaultMode: 'discrete', stops: stops.map(([value, color]) => ({ value, color })) };
}

type ProductInput = Omit<ProductDef, 'id' | 'coverage' | 'source' | 'startTime'> &
  Partial<Pick<ProductDef, 'coverage' | 'source' | 'startTime'>>;

function product(p: ProductInput): ProductDef {
  return {
    id: productId(p.name),
    source: SYNTHETIC_SOURCE_ID,
    startTime: CATALOG_START,
    coverage: globalCoverage(),
    ...(p.hasForecasts ? { forecastRuns: DEFAULT_FORECAST_RUNS } : {}),
    ...p,
  };
}

const TEMPERATURE_STOPS: [number, string][] = [
  [-40, '#2c0a5e'],
  [-20, '#3b4cc0'],
  [0, '#9abbff'],
  [10, '#f7f7f7'],
  [20, '#f6a482'],
  [30, '#d6604d'],
  [45, '#67001f'],
];

export const DEFAULT_PRODUCTS: readonly ProductDef[] = [
  product({
    name: 'air-temperature',
    description: 'Hourly 2 m air temperature (synthetic world)',
    contentType: 'temperature',
    variable: 'air_temperature',
    aggregationPeriodInMinutes: 0,
    cadenceMinutes: 60,
    horizonHours: SYNTHETIC_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [{ name: 'air_temperature', type: 'raster', unit: { description: 'degrees Celsius', label: '°C' }, attributes: [] }],
    defaultStyles: [
      {
        name: 'air-temperature-default',
        description: 'Blue to red, linear from -40 to 45 °C',
        layerName: 'air_temperature',
        colorizers: [linear(TEMPERATURE_STOPS)],
      },
    ],
  }),
  product({
    name: 'air-temperature-daily-max',
    description: 'Daily maximum 2 m air temperature over the local solar day (synthetic world)',
    contentType: 'temperature',
    variable: 'air_temperature_daily_max',
    aggregationPeriodInMinutes: 1440,
    cadenceMinutes: 1440,
    horizonHours: AGRONOMY_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [
      { name: 'air_temperature_daily_max', type: 'raster', unit: { description: 'degrees Celsius', label: '°C' }, attributes: [] },
    ],
    defaultStyles: [
      {
        name: 'air-temperature-daily-max-default',
        description: 'Blue to red, linear from -40 to 45 °C',
        layerName: 'air_temperature_daily_max',
        colorizers: [linear(TEMPERATURE_STOPS)],
      },
    ],
  }),
  product({
    name: 'air-temperature-daily-min',
    description: 'Daily minimum 2 m air temperature over the local solar day (synthetic world)',
    contentType: 'temperature',
    variable: 'air_temperature_daily_min',
    aggregationPeriodInMinutes: 1440,
    cadenceMinutes: 1440,
    horizonHours: AGRONOMY_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [
      { name: 'air_temperature_daily_min', type: 'raster', unit: { description: 'degrees Celsius', label: '°C' }, attributes: [] },
    ],
    defaultStyles: [
      {
        name: 'air-temperature-daily-min-default',
        description: 'Blue to red, linear from -40 to 45 °C',
        layerName: 'air_temperature_daily_min',
        colorizers: [linear(TEMPERATURE_STOPS)],
      },
    ],
  }),
  product({
    name: 'precipitation-rate',
    description: 'Hourly precipitation rate with precipitation type (synthetic world)',
    contentType: 'precipitation',
    variable: 'precipitation_rate',
    aggregationPeriodInMinutes: 0,
    cadenceMinutes: 60,
    horizonHours: SYNTHETIC_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [
      { name: 'precipitation_rate', type: 'raster', unit: { description: 'millimeters per hour', label: 'mm/h' }, attributes: [] },
      { name: PRECIPITATION_TYPE_LAYER, type: 'raster', unit: null, attributes: PRECIPITATION_TYPE_ATTRIBUTES.map((a) => ({ ...a })) },
    ],
    defaultStyles: [
      {
        name: 'precipitation-rate-default',
        description: 'Rain in greens, snow in blues, freezing rain in pinks, sleet in purples',
        layerName: 'precipitation_rate',
        colorizers: [
          {
            mask: { layerName: PRECIPITATION_TYPE_LAYER, attributes: ['rain'] },
            ...discrete([
              [0.1, '#a1d99b'],
              [1, '#41ab5d'],
              [4, '#006d2c'],
              [16, '#fdae61'],
              [50, '#d7191c'],
            ]),
          },
          {
            mask: { layerName: PRECIPITATION_TYPE_LAYER, attributes: ['snow'] },
            ...discrete([
              [0.1, '#c6dbef'],
              [1, '#6baed6'],
              [4, '#2171b5'],
              [10, '#08306b'],
            ]),
          },
          {
            mask: { layerName: PRECIPITATION_TYPE_LAYER, attributes: ['freezing_rain'] },
            ...discrete([
              [0.1, '#fcc5c0'],
              [1, '#f768a1'],
              [4, '#ae017e'],
            ]),
          },
          {
            mask: { layerName: PRECIPITATION_TYPE_LAYER, attributes: ['sleet'] },
            ...discrete([
              [0.1, '#dadaeb'],
              [1, '#9e9ac8'],
              [4, '#54278f'],
            ]),
          },
        ],
      },
    ],
  }),
  product({
    name: 'growing-degree-days',
    description:
      'Daily growing degree days over the local solar day, average method, base 10 °C, from the daily extremes of the synthetic world',
    contentType: 'agronomy',
    variable: null,
    aggregationPeriodInMinutes: 1440,
    cadenceMinutes: 1440,
    horizonHours: AGRONOMY_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [
      {
        name: 'growing_degree_days',
        type: 'raster',
        unit: { description: 'growing degree days, base 10 degrees Celsius', label: 'GDD' },
        attributes: [],
      },
    ],
    defaultStyles: [
      {
        name: 'growing-degree-days-default',
        description: 'Discrete classes of daily degree days',
        layerName: 'growing_degree_days',
        colorizers: [
          discrete([
            [0, 'rgba(255, 255, 255, 0)'],
            [1, '#ffffcc'],
            [5, '#c2e699'],
            [10, '#78c679'],
            [15, '#31a354'],
            [20, '#006837'],
          ]),
        ],
      },
    ],
  }),
  product({
    name: 'relative-humidity',
    description: 'Hourly relative humidity at 2 m from temperature and dewpoint (synthetic world)',
    contentType: 'humidity',
    variable: null,
    aggregationPeriodInMinutes: 0,
    cadenceMinutes: 60,
    horizonHours: SYNTHETIC_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [{ name: 'relative_humidity', type: 'raster', unit: { description: 'percent', label: '%' }, attributes: [] }],
    defaultStyles: [
      {
        name: 'relative-humidity-default',
        description: 'Brown (dry) to blue (humid), linear',
        layerName: 'relative_humidity',
        colorizers: [
          linear([
            [0, '#8c510a'],
            [30, '#dfc27d'],
            [60, '#c7eae5'],
            [100, '#01665e'],
          ]),
        ],
      },
    ],
  }),
  product({
    name: 'evapotranspiration-short-crop',
    description: 'Hourly ASCE standardized reference evapotranspiration, short crop (synthetic world)',
    contentType: 'evapotranspiration',
    variable: null,
    aggregationPeriodInMinutes: 60,
    cadenceMinutes: 60,
    horizonHours: SYNTHETIC_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [
      { name: 'evapotranspiration', type: 'raster', unit: { description: 'millimeters per hour', label: 'mm/hr' }, attributes: [] },
    ],
    defaultStyles: [
      {
        name: 'evapotranspiration-short-crop-default',
        description: 'Yellow to green, linear from 0 to 1 mm/hr',
        layerName: 'evapotranspiration',
        colorizers: [
          linear([
            [0, '#ffffe5'],
            [0.25, '#d9f0a3'],
            [0.5, '#78c679'],
            [1, '#004529'],
          ]),
        ],
      },
    ],
  }),
  product({
    name: 'shortwave-radiation',
    description: 'Hourly mean incoming shortwave radiation at the surface (synthetic world)',
    contentType: 'radiation',
    variable: 'surface_downwelling_shortwave_flux_in_air',
    aggregationPeriodInMinutes: 60,
    cadenceMinutes: 60,
    horizonHours: SYNTHETIC_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    styleableLayers: [
      {
        name: 'surface_downwelling_shortwave_flux_in_air',
        type: 'raster',
        unit: { description: 'watts per square meter', label: 'W/m²' },
        attributes: [],
      },
    ],
    defaultStyles: [
      {
        name: 'shortwave-radiation-default',
        description: 'Dark to yellow, linear from 0 to 1000 W/m²',
        layerName: 'surface_downwelling_shortwave_flux_in_air',
        colorizers: [
          linear([
            [0, '#000004'],
            [300, '#781c6d'],
            [700, '#ed6925'],
            [1000, '#fcffa4'],
          ]),
        ],
      },
    ],
  }),
  product({
    name: 'precipitation-rate-north-america',
    description: 'Hourly precipitation rate mosaic over North America, observed only (synthetic world)',
    contentType: 'precipitation',
    variable: 'precipitation_rate',
    aggregationPeriodInMinutes: 0,
    cadenceMinutes: 60,
    startTime: '2020-01-01T00:00:00Z',
    horizonHours: 0,
    coverage: northAmericaCoverage(),
    hasFrames: true,
    hasForecasts: false,
    styleableLayers: [
      { name: 'precipitation_rate', type: 'raster', unit: { description: 'millimeters per hour', label: 'mm/h' }, attributes: [] },
    ],
    defaultStyles: [
      {
        name: 'precipitation-rate-north-america-default',
        description: 'Greens to reds, discrete from 0.1 to 50 mm/h',
        layerName: 'precipitation_rate',
        colorizers: [
          discrete([
            [0.1, '#a1d99b'],
            [1, '#41ab5d'],
            [4, '#006d2c'],
            [16, '#fdae61'],
            [50, '#d7191c'],
          ]),
        ],
      },
    ],
  }),
  product({
    name: 'dew-point-temperature',
    description: 'Hourly 2 m dewpoint temperature (synthetic world); restricted: granted per account',
    contentType: 'humidity',
    variable: 'dew_point_temperature',
    aggregationPeriodInMinutes: 0,
    cadenceMinutes: 60,
    horizonHours: SYNTHETIC_HORIZON_HOURS,
    hasFrames: true,
    hasForecasts: true,
    access: 'restricted',
    styleableLayers: [
      { name: 'dew_point_temperature', type: 'raster', unit: { description: 'degrees Celsius', label: '°C' }, attributes: [] },
    ],
    defaultStyles: [
      {
        name: 'dew-point-temperature-default',
        description: 'Blue to red, linear from -40 to 45 °C',
        layerName: 'dew_point_temperature',
        colorizers: [linear(TEMPERATURE_STOPS)],
      },
    ],
  }),
  product({
    name: 'surface-altitude',
    description: 'Terrain height of the synthetic world; static, so it has no frames',
    contentType: 'terrain',
    variable: 'surface_altitude',
    aggregationPeriodInMinutes: 0,
    cadenceMinutes: 0,
    horizonHours: 0,
    hasFrames: false,
    hasForecasts: false,
    styleableLayers: [
      { name: 'surface_altitude', type: 'raster', unit: { description: 'meters above sea level', label: 'm' }, attributes: [] },
    ],
    defaultStyles: [
      {
        name: 'surface-altitude-default',
        description: 'Hypsometric tints, linear from 0 to 3000 m',
        layerName: 'surface_altitude',
        colorizers: [
          linear([
            [0, '#1a9850'],
            [500, '#d9ef8b'],
            [1500, '#a6611a'],
            [3000, '#ffffff'],
          ]),
        ],
      },
    ],
  }),
];

const C = { description: 'degrees Celsius', label: '°C' };

export const DEFAULT_MODELS: readonly ModelDef[] = [
  {
    id: modelId('synthetic-global'),
    name: 'synthetic-global',
    description: 'Global synthetic forecast model: 4 runs a day, hourly to 16 days',
    source: SYNTHETIC_SOURCE_ID,
    // the schedule of the default forecast products: one run of the synthetic world, one timetable
    runEveryHours: DEFAULT_FORECAST_RUNS.everyHours,
    horizonHours: SYNTHETIC_HORIZON_HOURS,
    stepHours: 1,
    publishDelayMinutes: DEFAULT_FORECAST_RUNS.publishDelayMinutes,
    retentionHours: DEFAULT_FORECAST_RUNS.retentionHours,
    variables: [
      { name: 'temperature', description: 'Air temperature at 2 m', unit: C, variable: 'air_temperature' },
      { name: 'dewPoint', description: 'Dewpoint temperature at 2 m', unit: C, variable: 'dew_point_temperature' },
      {
        name: 'windSpeed',
        description: 'Wind speed at 2 m',
        unit: { description: 'meters per second', label: 'm/s' },
        variable: 'wind_speed',
      },
      {
        name: 'surfacePressure',
        description: 'Air pressure at the surface',
        unit: { description: 'kilopascals', label: 'kPa' },
        variable: 'surface_air_pressure',
      },
      {
        name: 'precipitationRate',
        description: 'Precipitation rate, liquid water equivalent',
        unit: { description: 'millimeters per hour', label: 'mm/h' },
        variable: 'precipitation_rate',
      },
      {
        name: 'shortwaveRadiation',
        description: 'Incoming shortwave radiation at the surface',
        unit: { description: 'watts per square meter', label: 'W/m²' },
        variable: 'surface_downwelling_shortwave_flux_in_air',
      },
    ],
  },
  {
    id: modelId('synthetic-rapid'),
    name: 'synthetic-rapid',
    description: 'Rapid-refresh synthetic forecast model: hourly runs to 48 hours',
    source: SYNTHETIC_SOURCE_ID,
    runEveryHours: 1,
    horizonHours: 48,
    stepHours: 1,
    publishDelayMinutes: 45,
    retentionHours: 24,
    variables: [
      { name: 'temperature', description: 'Air temperature at 2 m', unit: C, variable: 'air_temperature' },
      { name: 'dewPoint', description: 'Dewpoint temperature at 2 m', unit: C, variable: 'dew_point_temperature' },
      {
        name: 'windSpeed',
        description: 'Wind speed at 2 m',
        unit: { description: 'meters per second', label: 'm/s' },
        variable: 'wind_speed',
      },
      {
        name: 'precipitationRate',
        description: 'Precipitation rate, liquid water equivalent',
        unit: { description: 'millimeters per hour', label: 'mm/h' },
        variable: 'precipitation_rate',
      },
    ],
  },
];

export const DEFAULT_TRANSFER_PRODUCTS: readonly TransferProductDef[] = [
  {
    name: 'air-temperature-daily-max-geotiff',
    description: 'Daily maximum 2 m air temperature, one GeoTIFF per day',
    format: 'GeoTIFF',
    variable: 'air_temperature_daily_max',
    cadenceMinutes: 1440,
  },
  {
    name: 'air-temperature-daily-min-geotiff',
    description: 'Daily minimum 2 m air temperature, one GeoTIFF per day',
    format: 'GeoTIFF',
    variable: 'air_temperature_daily_min',
    cadenceMinutes: 1440,
  },
  {
    name: 'air-temperature-hourly-netcdf',
    description: 'Hourly 2 m air temperature, one NetCDF file per day (24 steps)',
    format: 'NetCDF',
    variable: 'air_temperature',
    cadenceMinutes: 1440,
  },
  {
    name: 'precipitation-rate-hourly-netcdf',
    description: 'Hourly precipitation rate, one NetCDF file per day (24 steps)',
    format: 'NetCDF',
    variable: 'precipitation_rate',
    cadenceMinutes: 1440,
  },
  {
    name: 'shortwave-radiation-hourly-netcdf',
    description: 'Hourly mean shortwave radiation, one NetCDF file per day (24 steps)',
    format: 'NetCDF',
    variable: 'surface_downwelling_shortwave_flux_in_air',
    cadenceMinutes: 1440,
  },
  {
    name: 'air-temperature-daily-extremes-geotiff',
    description: 'Daily maximum and minimum 2 m air temperature, one two-band GeoTIFF per day',
    format: 'GeoTIFF',
    variable: 'air_temperature_daily_max',
    additionalVariables: ['air_temperature_daily_min'],
    cadenceMinutes: 1440,
  },
  {
    name: 'air-temperature-daily-extremes-netcdf',
    description: 'Daily maximum and minimum 2 m air temperature, one NetCDF file per day',
    format: 'NetCDF',
    variable: 'air_temperature_daily_max',
    additionalVariables: ['air_temperature_daily_min'],
    cadenceMinutes: 1440,
  },
  {
    name: 'surface-altitude-geotiff',
    description: 'Terrain height, a single static GeoTIFF',
    format: 'GeoTIFF',
    variable: 'surface_altitude',
    cadenceMinutes: 0,
  },
];
