import type { Catalog, GridSource, LoadWeatherSourceOptions } from '@fieldcast/weather';
import { type ErrorTranslation, InvalidRequestError, NotFoundError } from '@fieldcast/kit';
import { ConfigError } from './env.js';

export interface OpenedWeather {
  source: GridSource;
  /** one line per store served, for the start-up banner or log */
  description: string[];
  close(): Promise<void>;
}

/**
 * Opens the weather a process serves (docs/architecture.md §6). The weather package is imported
 * here, when a service declares it needs weather, so a process whose services need none (the
 * events service on its own) never loads it. A store that cannot be opened stops start-up.
 */
export async function openWeather(options: LoadWeatherSourceOptions): Promise<OpenedWeather> {
  const weather = await import('@fieldcast/weather');
  let source: GridSource;
  try {
    source = await weather.loadWeatherSource(options);
  } catch (err) {
    throw err instanceof weather.WeatherStoreError ? new ConfigError(err.message) : err;
  }
  return {
    source,
    description: weather.describeWeatherSource(source),
    close: async () => (source as { close?: () => Promise<void> }).close?.(),
  };
}

/**
 * The catalog a process serves (docs/architecture.md §6): the code's defaults with the YAML
 * override at `overridePath` (FIELDCAST_CATALOG) when given, loaded once and handed to every
 * service that declares it. A file that cannot be read or fails validation stops start-up.
 */
export async function openCatalog(overridePath: string | undefined): Promise<Catalog> {
  const weather = await import('@fieldcast/weather');
  try {
    return await weather.loadCatalog(overridePath ? { overridePath } : {});
  } catch (err) {
    throw err instanceof weather.CatalogError ? new ConfigError(`FIELDCAST_CATALOG: ${err.message}`) : err;
  }
}

/**
 * A GridRequestError of the weather package (out of coverage, a variable the source lacks, too
 * large a read) is the request's fault: 400 with its code as the problem id (docs/interface.md
 * §3); `not_synced` is 404 synced_weather_does_not_exist. Known by its name, so one thrown in a compute thread and revived here maps the same.
 */
export const gridRequestErrors: ErrorTranslation = (thrown) => {
  if (!(thrown instanceof Error) || thrown.name !== 'GridRequestError') return undefined;
  const code = String((thrown as { code?: unknown }).code);
  // Nothing stored there and the synthetic world off (docs/decisions/0256-synthetic-off.md): the data does not exist.
  if (code === 'not_synced') return new NotFoundError('synced_weather', '', thrown.message);
  return new InvalidRequestError(String((thrown as { code?: unknown }).code), thrown.message);
};
