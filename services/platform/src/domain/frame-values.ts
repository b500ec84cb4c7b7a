/**
 * The value of a frame at a point (docs/interface.md §6, datapoints): the product's first
 * styleable layer at the frame's valid time, read from the weather (docs/architecture.md §6)
 * bilinearly between the four surrounding grid points. A product whose layer is a gridded
 * variable reads it; the derived products compute theirs from the same inputs and published
 * forms as their areas (docs/decisions/0124-datapoints.md).
 */
import { averageDegreeDays, relativeHumidity, shortCropEtOfHour } from '@fieldcast/science';
import { etHourInputsAt, type GridSource, type ProductDef, type StyleableLayer } from '@fieldcast/weather';

/** spec 4.1 default base, and that of the growing-degree-days product's description (°C). */
const GDD_BASE_C = 10;

export interface FrameValue {
  value: number | null;
  unit: StyleableLayer['unit'];
}

type Reader = (weather: GridSource, lon: number, lat: number, validMs: number) => Promise<number>;

async function at(
  weather: GridSource,
  variable: Parameters<GridSource['pointSeries']>[0],
  lon: number,
  lat: number,
  ms: number,
): Promise<number> {
  const s = await weather.pointSeries(variable, lon, lat, { startMs: ms, endMs: ms });
  return s.values[0] ?? Number.NaN;
}

/**
 * Products without a gridded variable, by name: relative humidity from temperature and dewpoint
 * (Bolton 1980), daily degree days by the average method base 10 °C (McMaster and Wilhelm 1997),
 * hourly ASCE-EWRI 2005 standardized short-crop ET of the hour starting at the valid time
 * (`shortCropEtOfHour`, the tiles area's too: the instants at the hour's start, the shortwave of
 * the hour itself, the night's cloudiness the standard's fallback).
 */
const DERIVED: Readonly<Record<string, Reader>> = {
  'relative-humidity': async (weather, lon, lat, ms) => {
    const [t, td] = await Promise.all([at(weather, 'air_temperature', lon, lat, ms), at(weather, 'dew_point_temperature', lon, lat, ms)]);
    return relativeHumidity(t, td);
  },
  'growing-degree-days': async (weather, lon, lat, ms) => {
    const { tmax, tmin } = await weather.dailyExtremesAt(lon, lat, { startMs: ms, endMs: ms });
    return averageDegreeDays(tmax.values[0] ?? Number.NaN, tmin.values[0] ?? Number.NaN, GDD_BASE_C);
  },
  'evapotranspiration-short-crop': async (weather, lon, lat, ms) => {
    const [hour, elevation] = await Promise.all([
      etHourInputsAt(weather, lon, lat, ms, ms),
      weather.pointSeries('surface_altitude', lon, lat, { startMs: weather.coverage().startMs, endMs: weather.coverage().startMs }),
    ]);
    // No stamp at ms: no value.
    if (hour.startMs !== ms || hour.airTemperature.length === 0) return Number.NaN;
    return shortCropEtOfHour({
      airTemperature: hour.airTemperature[0]!,
      dewpoint: hour.dewpoint[0]!,
      shortwave: hour.shortwave[0]!,
      windSpeed: hour.windSpeed[0]!,
      elevation: elevation.values[0] ?? Number.NaN,
      latitude: lat,
      longitude: lon,
      hourStartMs: ms,
    });
  },
};

/** The unit of a product's values: its first styleable layer's (docs/decisions/0124-datapoints.md). */
export const frameUnit = (p: ProductDef) => p.styleableLayers[0]?.unit ?? null;

/** The frame's value at (lon, lat); null where the weather has none. */
export async function frameValueAt(weather: GridSource, p: ProductDef, validMs: number, lon: number, lat: number): Promise<FrameValue> {
  const unit = frameUnit(p);
  const variable = p.variable;
  const read: Reader | undefined = variable ? (w, x, y, t) => at(w, variable, x, y, t) : DERIVED[p.name];
  if (!read) return { value: null, unit };
  const v = await read(weather, lon, lat, validMs);
  return { value: Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null, unit };
}
