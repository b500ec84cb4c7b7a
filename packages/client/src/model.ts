import {
  AreaHttp,
  type BodySchema,
  type CallOptions,
  type ClientOptions,
  type Parsed,
  type QueryValue,
  readBody,
  readText,
} from './http.js';

/** Query of `listForecasts` (public record: start, end, limit, sort; by initTime). */
export interface ForecastListParams {
  start?: string | Date;
  end?: string | Date;
  limit?: number;
  sort?: 'asc' | 'desc';
}

/** Query of the time-series methods (spec 4.7: start, end, limit; by validTime). */
export interface TimeSeriesParams {
  start?: string | Date;
  end?: string | Date;
  limit?: number;
}

const variableSeriesPath = (forecastId: string, variable: string, latitude: number, longitude: number) =>
  ['forecasts', forecastId, 'variables', variable, 'timeseries', latitude, longitude] as const;

const latestSeriesPath = (modelName: string, latitude: number, longitude: number) =>
  ['models', modelName, 'latest-forecast', 'timeseries', latitude, longitude] as const;

/**
 * The model area (docs/interface.md §7): one method per operation, named as the public
 * JavaScript client names them, each returning the fetch Response. Each takes CallOptions last
 * (a signal, a timeout). The model area's lists are not paged: a model's runs are fewer than the
 * 1,000 that `listForecasts` returns at most (docs/decisions/0368-client-calls-bounded.md).
 */
export class ModelClient {
  private readonly http: AreaHttp;

  constructor(options: ClientOptions) {
    this.http = new AreaHttp('model', options);
  }

  /** GET /models */
  listModels(call?: CallOptions): Promise<Response> {
    return this.http.get(['models'], {}, call);
  }

  /** GET /models/{id-or-name} */
  getModel(modelId: string, call?: CallOptions): Promise<Response> {
    return this.http.get(['models', modelId], {}, call);
  }

  /** GET /models/{id-or-name}/variables */
  listModelVariables(modelId: string, call?: CallOptions): Promise<Response> {
    return this.http.get(['models', modelId, 'variables'], {}, call);
  }

  /** GET /models/{id-or-name}/latest-forecast: the newest complete run */
  getLatestForecast(modelId: string, call?: CallOptions): Promise<Response> {
    return this.http.get(['models', modelId, 'latest-forecast'], {}, call);
  }

  /** GET /forecasts/{id} */
  getForecast(forecastId: string, call?: CallOptions): Promise<Response> {
    return this.http.get(['forecasts', forecastId], {}, call);
  }

  /** GET /models/{id-or-name}/forecasts?start&end&limit&sort */
  listForecasts(modelId: string, params: ForecastListParams = {}, call?: CallOptions): Promise<Response> {
    return this.http.get(['models', modelId, 'forecasts'], { ...params } as Record<string, QueryValue>, call);
  }

  /** GET /variables/{id}: one variable of a run */
  getForecastVariable(variableId: string, call?: CallOptions): Promise<Response> {
    return this.http.get(['variables', variableId], {}, call);
  }

  /** GET /forecasts/{id}/variables */
  listForecastVariables(forecastId: string, call?: CallOptions): Promise<Response> {
    return this.http.get(['forecasts', forecastId, 'variables'], {}, call);
  }

  /** GET /forecasts/{f}/variables/{v}/timeseries/{latitude}/{longitude}?start&end&limit (spec 4.7) */
  getTimeSeries(
    forecastId: string,
    variable: string,
    latitude: number,
    longitude: number,
    params: TimeSeriesParams = {},
    call?: CallOptions,
  ): Promise<Response> {
    return this.http.get(variableSeriesPath(forecastId, variable, latitude, longitude), { ...params } as Record<string, QueryValue>, call);
  }

  /**
   * getTimeSeries as CSV (Accept: text/csv; docs/decisions/0243-csv-answers.md): one row per valid
   * time, the variable's column named with its unit. An error answer is still a problem body.
   */
  getTimeSeriesCsv(
    forecastId: string,
    variable: string,
    latitude: number,
    longitude: number,
    params: TimeSeriesParams = {},
    call?: CallOptions,
  ): Promise<Response> {
    return this.http.get(
      variableSeriesPath(forecastId, variable, latitude, longitude),
      { ...params } as Record<string, QueryValue>,
      call,
      'csv',
    );
  }

  /** GET /models/{name}/latest-forecast/timeseries/{latitude}/{longitude} (spec 4.7): every variable */
  getLatestTimeSeries(
    modelName: string,
    latitude: number,
    longitude: number,
    params: TimeSeriesParams = {},
    call?: CallOptions,
  ): Promise<Response> {
    return this.http.get(latestSeriesPath(modelName, latitude, longitude), { ...params } as Record<string, QueryValue>, call);
  }

  /** getLatestTimeSeries as CSV (Accept: text/csv): one row per valid time, a column per variable with its unit */
  getLatestTimeSeriesCsv(
    modelName: string,
    latitude: number,
    longitude: number,
    params: TimeSeriesParams = {},
    call?: CallOptions,
  ): Promise<Response> {
    return this.http.get(latestSeriesPath(modelName, latitude, longitude), { ...params } as Record<string, QueryValue>, call, 'csv');
  }

  /**
   * The same methods returning parsed bodies: each response is parsed with its schema (pass
   * `modelSchemas` of the shared schemas package), and a 4xx or 5xx answer throws a
   * FieldcastApiError carrying the problem body.
   */
  typed<S extends ModelSchemas>(schemas: S): TypedModelClient<S> {
    return new TypedModelClient(this, schemas);
  }
}

/** The response schema of each model operation. */
export interface ModelSchemas {
  models: BodySchema<unknown>;
  model: BodySchema<unknown>;
  modelVariables: BodySchema<unknown>;
  forecasts: BodySchema<unknown>;
  forecast: BodySchema<unknown>;
  forecastVariables: BodySchema<unknown>;
  forecastVariable: BodySchema<unknown>;
  timeSeries: BodySchema<unknown>;
  latestTimeSeries: BodySchema<unknown>;
}

/**
 * ModelClient's methods with bodies parsed by the schemas, typed by them; the CSV forms answer the
 * text. Each takes the same CallOptions last.
 */
export class TypedModelClient<S extends ModelSchemas> {
  constructor(
    readonly raw: ModelClient,
    private readonly schemas: S,
  ) {}

  async listModels(call?: CallOptions): Promise<Parsed<S['models']>> {
    return readBody(await this.raw.listModels(call), this.schemas.models) as Promise<Parsed<S['models']>>;
  }

  async getModel(modelId: string, call?: CallOptions): Promise<Parsed<S['model']>> {
    return readBody(await this.raw.getModel(modelId, call), this.schemas.model) as Promise<Parsed<S['model']>>;
  }

  async listModelVariables(modelId: string, call?: CallOptions): Promise<Parsed<S['modelVariables']>> {
    return readBody(await this.raw.listModelVariables(modelId, call), this.schemas.modelVariables) as Promise<Parsed<S['modelVariables']>>;
  }

  async getLatestForecast(modelId: string, call?: CallOptions): Promise<Parsed<S['forecast']>> {
    return readBody(await this.raw.getLatestForecast(modelId, call), this.schemas.forecast) as Promise<Parsed<S['forecast']>>;
  }

  async getForecast(forecastId: string, call?: CallOptions): Promise<Parsed<S['forecast']>> {
    return readBody(await this.raw.getForecast(forecastId, call), this.schemas.forecast) as Promise<Parsed<S['forecast']>>;
  }

  async listForecasts(modelId: string, params?: ForecastListParams, call?: CallOptions): Promise<Parsed<S['forecasts']>> {
    return readBody(await this.raw.listForecasts(modelId, params, call), this.schemas.forecasts) as Promise<Parsed<S['forecasts']>>;
  }

  async getForecastVariable(variableId: string, call?: CallOptions): Promise<Parsed<S['forecastVariable']>> {
    return readBody(await this.raw.getForecastVariable(variableId, call), this.schemas.forecastVariable) as Promise<
      Parsed<S['forecastVariable']>
    >;
  }

  async listForecastVariables(forecastId: string, call?: CallOptions): Promise<Parsed<S['forecastVariables']>> {
    return readBody(await this.raw.listForecastVariables(forecastId, call), this.schemas.forecastVariables) as Promise<
      Parsed<S['forecastVariables']>
    >;
  }

  async getTimeSeries(
    forecastId: string,
    variable: string,
    latitude: number,
    longitude: number,
    params?: TimeSeriesParams,
    call?: CallOptions,
  ): Promise<Parsed<S['timeSeries']>> {
    const response = await this.raw.getTimeSeries(forecastId, variable, latitude, longitude, params, call);
    return readBody(response, this.schemas.timeSeries) as Promise<Parsed<S['timeSeries']>>;
  }

  async getTimeSeriesCsv(
    forecastId: string,
    variable: string,
    latitude: number,
    longitude: number,
    params?: TimeSeriesParams,
    call?: CallOptions,
  ): Promise<string> {
    return readText(await this.raw.getTimeSeriesCsv(forecastId, variable, latitude, longitude, params, call));
  }

  async getLatestTimeSeries(
    modelName: string,
    latitude: number,
    longitude: number,
    params?: TimeSeriesParams,
    call?: CallOptions,
  ): Promise<Parsed<S['latestTimeSeries']>> {
    const response = await this.raw.getLatestTimeSeries(modelName, latitude, longitude, params, call);
    return readBody(response, this.schemas.latestTimeSeries) as Promise<Parsed<S['latestTimeSeries']>>;
  }

  async getLatestTimeSeriesCsv(
    modelName: string,
    latitude: number,
    longitude: number,
    params?: TimeSeriesParams,
    call?: CallOptions,
  ): Promise<string> {
    return readText(await this.raw.getLatestTimeSeriesCsv(modelName, latitude, longitude, params, call));
  }
}
