/**
 * The value of a frame at a point (docs/interface.md §6, datapoints): the product's first
 * styleable layer at the frame's valid time, read from the weather (docs/architecture.md §6)
 * bilinearly between the four surrounding grid points. A product whose layer is a gridded
 * variable reads it; the derived products compute theirs from the same inputs and published
 * forms as their areas (docs/decisions/0124-datapoints.md). A forecast frame of a product whose
 * runs are a model's reads each variable as that model's run does, with the run's error, before
 * deriving anything (docs/decisions/0496-product-runs-are-a-models-runs.md).
 */
import { averageDegreeDays, relativeHumidity, shortCropEtOfHour } from '@fieldcast/science';
import {
  ERROR_RULES,
  type ErrorRun,
  etHourInputsAt,
  forecastAt,
  forecastEtInputs,
  type GridSource,
  type ProductDef,
  type StyleableLayer,
  type VariableId,
} from '@fieldcast/weather';

/** spec 4.1 default base, and that of the growing-degree-days product's description (°C). */
const GDD_BASE_C = 10;

export interface FrameValue {
  value: number | null;
  unit: StyleableLayer['unit'];
}

/** A variable's value at a point with the frame's run's error (the truth where it has none), the temperature's truth for the dewpoint's. */
type Forecast = (variable: VariableId, lon: number, lat: number, value: number, temperature?: number) => number;

type Reader = (weather: GridSource, lon: number, lat: number, validMs: number, forecast: Forecast) => Promise<number>;

async function at(weather: GridSource, variable: VariableId, lon: number, lat: number, ms: number): Promise<number> {
  const s = await weather.pointSeries(variable, lon, lat, { startMs: ms, endMs: ms });
  return s.values[0] ?? Number.NaN;
}

/** The truth with no error: an analysis frame, a synced frame, a product whose runs no model runs. */
const TRUTH: Forecast = (_variable, _lon, _lat, value) => value;

/** A variable's forecast value at a point as run `run` has it at validMs (forecastAt, the model area's error). */
function runForecast(run: ErrorRun, validMs: number): Forecast {
  const forecast = forecastAt(run, validMs);
  return (variable, lon, lat, value, temperature) => forecast(ERROR_RULES[variable], lat, lon, value, temperature);
}

/** A gridded variable's value at a point: the dewpoint's error needs the temperature's truth too. */
async function variableAt(
  weather: GridSource,
  variable: VariableId,
  lon: number,
  lat: number,
  ms: number,
  forecast: Forecast,
): Promise<number> {
  if (forecast === TRUTH || ERROR_RULES[variable].kind !== 'depression')
    return forecast(variable, lon, lat, await at(weather, variable, lon, lat, ms));
  const [v, t] = await Promise.all([at(weather, variable, lon, lat, ms), at(weather, 'air_temperature', lon, lat, ms)]);
  return forecast(variable, lon, lat, v, t);
}

/**
 * Products without a gridded variable, by name: relative humidity from temperature and dewpoint
 * (Bolton 1980), daily degree days by the average method base 10 °C (McMaster and Wilhelm 1997),
 * hourly ASCE-EWRI 2005 standardized short-crop ET of the hour starting at the valid time
 * (`shortCropEtOfHour`, the tiles area's too: the instants at the hour's start, the shortwave of
 * the hour itself, the night's cloudiness the standard's fallback).
 */
const DERIVED: Readonly<Record<string, Reader>> = {
  'relative-humidity': async (weather, lon, lat, ms, forecast) => {
    const [t, td] = await Promise.all([at(weather, 'air_temperature', lon, lat, ms), at(weather, 'dew_point_temperature', lon, lat, ms)]);
    return relativeHumidity(forecast('air_temperature', lon, lat, t), forecast('dew_point_temperature', lon, lat, td, t));
  },
  'growing-degree-days': async (weather, lon, lat, ms, forecast) => {
    const { tmax, tmin } = await weather.dailyExtremesAt(lon, lat, { startMs: ms, endMs: ms });
    return averageDegreeDays(
      forecast('air_temperature_daily_max', lon, lat, tmax.values[0] ?? Number.NaN),
      forecast('air_temperature_daily_min', lon, lat, tmin.values[0] ?? Number.NaN),
      GDD_BASE_C,
    );
  },
  'evapotranspiration-short-crop': async (weather, lon, lat, ms, forecast) => {
    const [hour, elevation] = await Promise.all([
      etHourInputsAt(weather, lon, lat, ms, ms),
      weather.pointSeries('surface_altitude', lon, lat, { startMs: weather.coverage().startMs, endMs: weather.coverage().startMs }),
    ]);
    // No stamp at ms: no value.
    if (hour.startMs !== ms || hour.airTemperature.length === 0) return Number.NaN;
    const truth = {
      airTemperature: hour.airTemperature[0]!,
      dewpoint: hour.dewpoint[0]!,
      shortwave: hour.shortwave[0]!,
      windSpeed: hour.windSpeed[0]!,
    };
    return shortCropEtOfHour({
      ...forecastEtInputs((variable, value, temperature) => forecast(variable, lon, lat, value, temperature), truth),
      elevation: elevation.values[0] ?? Number.NaN,
      latitude: lat,
      longitude: lon,
      hourStartMs: ms,
    });
  },
};

/** The unit of a product's values: its first styleable layer's (docs/decisions/0124-datapoints.md). */
export const frameUnit = (p: ProductDef) => p.styleableLayers[0]?.unit ?? null;

/**
 * The frame's value at (lon, lat); null where the weather has none. `run`: the run whose error a
 * forecast frame carries (frameErrorRun), none for the weather's values.
 */
export async function frameValueAt(
  weather: GridSource,
  p: ProductDef,
  validMs: number,
  lon: number,
  lat: number,
  run: ErrorRun | null = null,
): Promise<FrameValue> {
  const unit = frameUnit(p);
  const variable = p.variable;
  const read: Reader | undefined = variable ? (w, x, y, t, f) => variableAt(w, variable, x, y, t, f) : DERIVED[p.name];
  if (!read) return { value: null, unit };
  const v = await read(weather, lon, lat, validMs, run ? runForecast(run, validMs) : TRUTH);
  return { value: Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null, unit };
}
