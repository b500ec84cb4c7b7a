import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CallOptions,
  type ClientOptions,
  FieldcastApiError,
  FieldcastClient,
  FieldcastTimeoutError,
  type ModelClient,
  type ModelSchemas,
  type TypedModelClient,
} from '../src/index.js';

/*
 * Calls bounded and cancelled, and the series as CSV, against an HTTP server listening in this
 * process: real fetch, real sockets, so an abort is seen by the server as a closed connection.
 */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let handler: Handler;
/** each request as the server saw it */
const seen: { url: string; accept: string | undefined }[] = [];
/** requests whose connection closed before their answer was complete (each test asks for its own path) */
const cutOff: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url!, accept: req.headers.accept });
    req.socket.on('close', () => {
      if (!res.writableFinished) cutOff.push(req.url!);
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  cutOff.length = 0;
  handler = answer(200, []);
});

/** Answers JSON after a delay. */
const answer =
  (status: number, body: unknown, delayMs = 0): Handler =>
  (_req, res) =>
    setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)), delayMs);
/** Never answers. */
const silent: Handler = () => {};
/** Sends the head and the first byte of the body, then nothing more. */
const stalling: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
};

const modelOf = (options: Partial<ClientOptions> = {}): ModelClient =>
  new FieldcastClient({ applicationId: 'app', applicationKey: 'key', baseUrls: { model: base }, ...options }).model;
const schemas = new Proxy({}, { get: () => ({ parse: (d: unknown) => d }) }) as never;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the call succeeded');
    },
    (err: unknown) => err,
  );

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}

describe('timeouts', () => {
  test('a call without an answer within its timeout fails with a FieldcastTimeoutError and closes the connection', async () => {
    handler = silent;
    const err = (await failure(modelOf({ timeoutMs: 500 }).getModel('silent'))) as FieldcastTimeoutError;
    expect(err).toBeInstanceOf(FieldcastTimeoutError);
    expect(err.name).toBe('TimeoutError');
    expect(err.timeoutMs).toBe(500);
    expect(err.request).toBe(`GET ${base}/models/silent`);
    expect(seen).toHaveLength(1);
    await until(() => cutOff.includes('/models/silent'));
  });

  test('the timeout bounds the body too: an answer whose body stalls after its head fails', async () => {
    handler = stalling;
    expect(await failure(modelOf({ timeoutMs: 300 }).getModel('stalling'))).toBeInstanceOf(FieldcastTimeoutError);
    expect(seen).toHaveLength(1);
    await until(() => cutOff.includes('/models/stalling'));
  });

  test('a timeout is told from an abort even by a fetch that rejects with an error of its own (node-fetch 2 does)', async () => {
    const ownError = (init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () =>
          reject(Object.assign(new Error('The user aborted a request.'), { name: 'AbortError' })),
        ),
      );
    const model = modelOf({ fetch: ((_input: string, init?: RequestInit) => ownError(init)) as typeof fetch, timeoutMs: 50 });
    expect(await failure(model.listModels())).toBeInstanceOf(FieldcastTimeoutError);
    const reason = new Error('the user left the page');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 20);
    expect(await failure(model.listModels({ signal: controller.signal }))).toBe(reason);
  });

  test("a call's timeoutMs replaces the client's, either way", async () => {
    handler = answer(200, [], 300);
    expect((await modelOf({ timeoutMs: 50 }).listModels({ timeoutMs: 5_000 })).status).toBe(200);
    expect(await failure(modelOf({ timeoutMs: Infinity }).listModels({ timeoutMs: 50 }))).toBeInstanceOf(FieldcastTimeoutError);
    expect(await modelOf({ timeoutMs: 50 }).typed(schemas).listModels({ timeoutMs: Infinity })).toEqual([]);
  });

  test('the typed methods are bounded by the same timeout', async () => {
    handler = answer(200, [], 300);
    expect(await failure(modelOf().typed(schemas).getModel('m', { timeoutMs: 50 }))).toBeInstanceOf(FieldcastTimeoutError);
  });

  test('a timeout that is not a whole number of ms from 1 to 2^31 - 1, nor Infinity, is a RangeError before anything is sent', async () => {
    // Above 2^31 - 1 ms setTimeout fires at once (HTML §8.6 timers), so such a value would fail every call.
    for (const timeoutMs of [0, -1, 1.5, NaN, 2 ** 31]) {
      expect(() => modelOf({ timeoutMs })).toThrow(RangeError);
      await expect(modelOf().listModels({ timeoutMs })).rejects.toThrow(RangeError);
    }
    expect(seen).toEqual([]);
  });
});

describe('cancelling', () => {
  test("the caller's abort rejects with its signal's reason, not a timeout, and closes the connection", async () => {
    const controller = new AbortController();
    handler = () => controller.abort();
    const err = (await failure(modelOf().getModel('aborted', { signal: controller.signal }))) as Error;
    expect(err).not.toBeInstanceOf(FieldcastTimeoutError);
    expect(err.name).toBe('AbortError');
    expect(err).toBe(controller.signal.reason);
    await until(() => cutOff.includes('/models/aborted'));
  });

  test('an abort while the body arrives rejects with the reason given', async () => {
    const controller = new AbortController();
    const reason = new Error('the user left the page');
    handler = (req, res) => {
      stalling(req, res);
      setTimeout(() => controller.abort(reason), 50);
    };
    expect(await failure(modelOf().getForecast('f', { signal: controller.signal }))).toBe(reason);
  });

  test('every method, raw and typed, takes the call options: an aborted signal sends nothing', async () => {
    const signal = AbortSignal.abort();
    const raw = modelOf();
    const every = (m: ModelClient | TypedModelClient<ModelSchemas>, call: CallOptions) => [
      m.listModels(call),
      m.getModel('m', call),
      m.listModelVariables('m', call),
      m.getLatestForecast('m', call),
      m.getForecast('f', call),
      m.listForecasts('m', {}, call),
      m.getForecastVariable('v', call),
      m.listForecastVariables('f', call),
      m.getTimeSeries('f', 'temperature', 1, 2, {}, call),
      m.getTimeSeriesCsv('f', 'temperature', 1, 2, {}, call),
      m.getLatestTimeSeries('m', 1, 2, {}, call),
      m.getLatestTimeSeriesCsv('m', 1, 2, {}, call),
    ];
    for (const call of [...every(raw, { signal }), ...every(raw.typed(schemas), { signal })])
      expect(await failure(call)).toBe(signal.reason);
    expect(seen).toEqual([]);
  });
});

describe('nothing left behind', () => {
  test("every call clears its timer and removes its listener from the caller's signal, however it ends", async () => {
    // Our timers, told apart from others by their delay.
    const timeoutMs = 123_457;
    const live = new Set<unknown>();
    const { setTimeout: set, clearTimeout: clear } = globalThis;
    globalThis.setTimeout = ((fn: () => void, ms: number) => {
      const timer = set(fn, ms);
      if (ms === timeoutMs) live.add(timer);
      return timer;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((timer: ReturnType<typeof setTimeout>) => {
      live.delete(timer);
      clear(timer);
    }) as typeof clearTimeout;
    try {
      const model = modelOf({ timeoutMs });
      const controller = new AbortController();
      const { signal } = controller;
      handler = answer(200, []);
      await model.listModels({ signal });
      handler = answer(404, { id: 'model_does_not_exist', message: 'no' });
      await failure(model.typed(schemas).getModel('m', { signal }));
      handler = stalling;
      await failure(model.listModels({ signal, timeoutMs: 50 }));
      handler = () => controller.abort();
      await failure(model.listModels({ signal }));
      expect(seen).toHaveLength(4);
      expect(live.size).toBe(0);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    } finally {
      Object.assign(globalThis, { setTimeout: set, clearTimeout: clear });
    }
  });

  test('the default timeout is 30 s', async () => {
    const delays: number[] = [];
    const set = globalThis.setTimeout;
    globalThis.setTimeout = ((fn: () => void, ms: number) => (delays.push(ms), set(fn, ms))) as typeof setTimeout;
    try {
      await modelOf().listModels();
    } finally {
      globalThis.setTimeout = set;
    }
    expect(delays).toContain(30_000);
  });
});

describe('series as CSV', () => {
  const csv = 'latitude,longitude,validTime,temperature (°C)\r\n1,2,2026-05-01T12:00:00.000Z,11.5\r\n';
  const negotiating: Handler = (req, res) => {
    if (req.headers.accept === 'text/csv') res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8; header=present' }).end(csv);
    else answer(200, { series: [] })(req, res);
  };

  test('the CSV forms ask for text/csv at the same URL, and the typed ones answer the text', async () => {
    handler = negotiating;
    const model = modelOf();
    const res = await model.getTimeSeriesCsv('f', 'temperature', 1, 2, { limit: 1 });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await res.text()).toBe(csv);
    await model.getTimeSeries('f', 'temperature', 1, 2, { limit: 1 });
    expect(seen).toEqual([
      { url: '/forecasts/f/variables/temperature/timeseries/1/2?limit=1', accept: 'text/csv' },
      { url: '/forecasts/f/variables/temperature/timeseries/1/2?limit=1', accept: 'application/vnd.fieldcast+json; version=1' },
    ]);
    expect(await model.typed(schemas).getTimeSeriesCsv('f', 'temperature', 1, 2)).toBe(csv);
    expect(await model.typed(schemas).getLatestTimeSeriesCsv('synthetic-global', 1, 2, { limit: 1 })).toBe(csv);
    expect(seen[3]).toEqual({ url: '/models/synthetic-global/latest-forecast/timeseries/1/2?limit=1', accept: 'text/csv' });
  });

  test('a CSV call answered with a problem throws a FieldcastApiError carrying it', async () => {
    handler = answer(404, { id: 'forecast_does_not_exist', message: 'Forecast f does not exist' });
    const err = (await failure(modelOf().typed(schemas).getTimeSeriesCsv('f', 'temperature', 1, 2))) as FieldcastApiError;
    expect(err).toBeInstanceOf(FieldcastApiError);
    expect(err.problem.id).toBe('forecast_does_not_exist');
  });
});
