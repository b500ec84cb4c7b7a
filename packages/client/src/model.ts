import { AreaHttp, type BodySchema, type ClientOptions, type Parsed, type QueryValue, readBody } from './http.js';

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

/**
 * The model area (docs/interface.md §7): one method per operation, named as the public
 * JavaScript client names them, each returning the fetch Response.
 */
export class ModelClient {
  private readonly http: AreaHttp;

  constructor(options: ClientOptions) {
    this.http = new AreaHttp('model', options);
  }

  /** GET /models */
  listModels(): Promise<Response> {
    return this.http.get(['models']);
  }

  /** GET /models/{id-or-name} */
  getModel(modelId: string): Promise<Response> {
    return this.http.get(['models', modelId]);
  }

  /** GET /models/{id-or-name}/variables */
  listModelVariables(modelId: string): Promise<Response> {
    return this.http.get(['models', modelId, 'variables']);
  }

  /** GET /models/{id-or-name}/latest-forecast: the newest complete run */
  getLatestForecast(modelId: string): Promise<Response> {
    return this.http.get(['models', modelId, 'latest-forecast']);
  }

  /** GET /forecasts/{id} */
  getForecast(forecastId: string): Promise<Response> {
    return this.http.get(['forecasts', forecastId]);
  }

  /** GET /models/{id-or-name}/forecasts?start&end&limit&sort */
  listForecasts(modelId: string, params: ForecastListParams = {}): Promise<Response> {
    return this.http.get(['models', modelId, 'forecasts'], { ...params } as Record<string, QueryValue>);
  }

  /** GET /variables/{id}: one variable of a run */
  getForecastVariable(variableId: string): Promise<Response> {
    return this.http.get(['variables', variableId]);
  }

  /** GET /forecasts/{id}/variables */
  listForecastVariables(forecastId: string): Promise<Response> {
    return this.http.get(['forecasts', forecastId, 'variables']);
  }

  /** GET /forecasts/{f}/variables/{v}/timeseries/{latitude}/{longitude}?start&end&limit (spec 4.7) */
  getTimeSeries(
    forecastId: string,
    variable: string,
    latitude: number,
    longitude: number,
    params: TimeSeriesParams = {},
  ): Promise<Response> {
    return this.http.get(['forecasts', forecastId, 'variables', variable, 'timeseries', latitude, longitude], { ...params } as Record<
      string,
      QueryValue
    >);
  }

  /** GET /models/{name}/latest-forecast/timeseries/{latitude}/{longitude} (spec 4.7): every variable */
  getLatestTimeSeries(modelName: string, latitude: number, longitude: number, params: TimeSeriesParams = {}): Promise<Response> {
    return this.http.get(['models', modelName, 'latest-forecast', 'timeseries', latitude, longitude], { ...params } as Record<
      string,
      QueryValue
    >);
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

/** ModelClient's methods with bodies parsed by the schemas, typed by them. */
export class TypedModelClient<S extends ModelSchemas> {
  constructor(
    readonly raw: ModelClient,
    private readonly schemas: S,
  ) {}

  async listModels(): Promise<Parsed<S['models']>> {
    return readBody(await this.raw.listModels(), this.schemas.models) as Promise<Parsed<S['models']>>;
  }

  async getModel(modelId: string): Promise<Parsed<S['model']>> {
    return readBody(await this.raw.getModel(modelId), this.schemas.model) as Promise<Parsed<S['model']>>;
  }

  async listModelVariables(modelId: string): Promise<Parsed<S['modelVariables']>> {
    return readBody(await this.raw.listModelVariables(modelId), this.schemas.modelVariables) as Promise<Parsed<S['modelVariables']>>;
  }

  async getLatestForecast(modelId: string): Promise<Parsed<S['forecast']>> {
    return readBody(await this.raw.getLatestForecast(modelId), this.schemas.forecast) as Promise<Parsed<S['forecast']>>;
  }

  async getForecast(forecastId: string): Promise<Parsed<S['forecast']>> {
    return readBody(await this.raw.getForecast(forecastId), this.schemas.forecast) as Promise<Parsed<S['forecast']>>;
  }

  async listForecasts(modelId: string, params?: ForecastListParams): Promise<Parsed<S['forecasts']>> {
    return readBody(await this.raw.listForecasts(modelId, params), this.schemas.forecasts) as Promise<Parsed<S['forecasts']>>;
  }

  async getForecastVariable(variableId: string): Promise<Parsed<S['forecastVariable']>> {
    return readBody(await this.raw.getForecastVariable(variableId), this.schemas.forecastVariable) as Promise<
      Parsed<S['forecastVariable']>
    >;
  }

  async listForecastVariables(forecastId: string): Promise<Parsed<S['forecastVariables']>> {
    return readBody(await this.raw.listForecastVariables(forecastId), this.schemas.forecastVariables) as Promise<
      Parsed<S['forecastVariables']>
    >;
  }

  async getTimeSeries(
    forecastId: string,
    variable: string,
    latitude: number,
    longitude: number,
    params?: TimeSeriesParams,
  ): Promise<Parsed<S['timeSeries']>> {
    const response = await this.raw.getTimeSeries(forecastId, variable, latitude, longitude, params);
    return readBody(response, this.schemas.timeSeries) as Promise<Parsed<S['timeSeries']>>;
  }

  async getLatestTimeSeries(
    modelName: string,
    latitude: number,
    longitude: number,
    params?: TimeSeriesParams,
  ): Promise<Parsed<S['latestTimeSeries']>> {
    const response = await this.raw.getLatestTimeSeries(modelName, latitude, longitude, params);
    return readBody(response, this.schemas.latestTimeSeries) as Promise<Parsed<S['latestTimeSeries']>>;
  }
}
