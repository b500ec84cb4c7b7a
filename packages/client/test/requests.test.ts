import { FieldcastApiError, FieldcastClient, type ModelClient } from '../src/index.js';

/** A client whose fetch records each URL and answers with the given response. */
function recording(answer: () => Response = () => Response.json([])): { model: ModelClient; urls: string[] } {
  const urls: string[] = [];
  const fetch = async (input: string | URL | Request) => {
    urls.push(String(input));
    return answer();
  };
  const client = new FieldcastClient({
    applicationId: 'app',
    applicationKey: 'key',
    baseUrls: { model: 'https://api.example/model/' },
    fetch: fetch as typeof globalThis.fetch,
  });
  return { model: client.model, urls };
}

const FORECAST = '3f1c2b9e-8a7d-4c6b-9e5f-1a2b3c4d5e6f';

describe('request URLs', () => {
  test('sends a UTC offset in the query as %2B00:00, never as a + that reads as a space', async () => {
    const { model, urls } = recording();
    await model.listForecasts('synthetic-global', { start: '2026-05-01T00:00:00+00:00', end: new Date('2026-05-02T00:00:00Z'), limit: 2 });
    const url = new URL(urls[0]!);
    expect(url.search).toContain('start=2026-05-01T00%3A00%3A00%2B00%3A00');
    expect(url.searchParams.get('start')).toBe('2026-05-01T00:00:00+00:00');
    expect(url.searchParams.get('end')).toBe('2026-05-02T00:00:00.000Z');
  });

  test('writes coordinates as plain decimals, never in exponent notation', async () => {
    const { model, urls } = recording();
    await model.getTimeSeries(FORECAST, 'temperature', 1e-7, -2.5e-7);
    await model.getLatestTimeSeries('synthetic-global', -0.000001234, 42.0308);
    // The server takes latitude and longitude as plain decimals only (docs/interface.md §1 "Values").
    expect(urls[0]).toBe(`https://api.example/model/forecasts/${FORECAST}/variables/temperature/timeseries/0.0000001/-0.00000025`);
    expect(urls[1]).toBe('https://api.example/model/models/synthetic-global/latest-forecast/timeseries/-0.000001234/42.0308');
  });

  test('escapes path segments, so a / or ? in a name stays inside its segment', async () => {
    const { model, urls } = recording();
    await model.getModel('a/b?c');
    expect(new URL(urls[0]!).pathname).toBe('/model/models/a%2Fb%3Fc');
  });

  test('an invalid Date in start or end is a TypeError naming the parameter, before anything is sent', async () => {
    const { model, urls } = recording();
    const invalid = new Date('not a date');
    await expect(model.listForecasts('synthetic-global', { start: invalid })).rejects.toThrow(TypeError);
    await expect(model.listForecasts('synthetic-global', { start: invalid })).rejects.toThrow(/\bstart\b/);
    await expect(model.getTimeSeries(FORECAST, 'temperature', 0, 0, { end: invalid })).rejects.toThrow(/\bend\b.*valid/);
    expect(urls).toEqual([]);
  });

  test('a null query value, as from plain JavaScript, is left out as undefined is, never sent as "null"', async () => {
    const { model, urls } = recording();
    const params = { start: null, end: undefined, limit: null, sort: null } as unknown as { limit: number };
    await model.listForecasts('synthetic-global', params);
    await model.getLatestTimeSeries('synthetic-global', 1, 2, { start: null, limit: 3 } as unknown as { limit: number });
    expect(urls).toEqual([
      'https://api.example/model/models/synthetic-global/forecasts',
      'https://api.example/model/models/synthetic-global/latest-forecast/timeseries/1/2?limit=3',
    ]);
  });

  test('refuses an empty, "." or ".." path segment instead of asking for another resource', async () => {
    const { model, urls } = recording();
    // `/models/` is the list of models, `/models/..` is normalised to the base by URL parsing.
    for (const id of ['', '.', '..']) await expect(model.getModel(id)).rejects.toThrow(RangeError);
    await expect(model.getTimeSeries(FORECAST, '..', 0, 0)).rejects.toThrow(/variable|segment/);
    expect(urls).toEqual([]);
  });
});

describe('the fetch given in the options', () => {
  test('is called as a plain function, as a browser requires of window.fetch', async () => {
    // A browser's fetch is an operation of Window (WebIDL): called with any other `this` it throws
    // "Illegal invocation", so `fetch: window.fetch` must not be called as a method of the client.
    const receivers: unknown[] = [];
    const browserFetch = function (this: unknown) {
      receivers.push(this);
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      return Promise.resolve(Response.json([]));
    };
    const client = new FieldcastClient({
      applicationId: 'app',
      applicationKey: 'key',
      baseUrls: { model: 'https://api.example/model' },
      fetch: browserFetch as unknown as typeof globalThis.fetch,
    });
    expect((await client.model.listModels()).status).toBe(200);
    expect(receivers).toEqual([undefined]);
  });
});

describe('base URLs', () => {
  test('with or without a trailing slash, with a path prefix, or relative to a page', async () => {
    const urls: string[] = [];
    const fetch = (async (input: string) => (urls.push(input), Response.json([]))) as typeof globalThis.fetch;
    for (const model of ['https://api.example', 'https://api.example/', 'https://api.example/model//', '/model']) {
      await new FieldcastClient({ applicationId: 'app', applicationKey: 'key', baseUrls: { model }, fetch }).model.getModel('m');
    }
    expect(urls).toEqual([
      'https://api.example/models/m',
      'https://api.example/models/m',
      'https://api.example/model/models/m',
      '/model/models/m',
    ]);
  });

  test('may be URL objects, as plain JavaScript passes them', async () => {
    const urls: string[] = [];
    const fetch = (async (input: string) => (urls.push(input), Response.json([]))) as typeof globalThis.fetch;
    for (const model of [new URL('https://api.example'), new URL('https://api.example/model/')]) {
      const baseUrls = { model } as unknown as { model: string };
      await new FieldcastClient({ applicationId: 'app', applicationKey: 'key', baseUrls, fetch }).model.getModel('m');
    }
    expect(urls).toEqual(['https://api.example/models/m', 'https://api.example/model/models/m']);
    // A URL object with a query is refused as the same text is.
    const withQuery = { model: new URL('https://api.example/model?k=1') } as unknown as { model: string };
    expect(() => new FieldcastClient({ applicationId: 'app', applicationKey: 'key', baseUrls: withQuery }).model).toThrow(
      /baseUrls\.model .*query or a fragment/,
    );
  });

  test('that are neither text nor a URL object are a TypeError naming the option', () => {
    for (const model of [8085, { href: 'https://api.example' }, ['https://api.example']]) {
      const baseUrls = { model } as unknown as { model: string };
      expect(() => new FieldcastClient({ applicationId: 'app', applicationKey: 'key', baseUrls }).model).toThrow(TypeError);
      expect(() => new FieldcastClient({ applicationId: 'app', applicationKey: 'key', baseUrls }).model).toThrow(/baseUrls\.model/);
    }
  });

  test('with a query or a fragment are refused, since the path would be appended to it', () => {
    // `https://api.example/model?k=1` would ask for `/model` with the query `k=1/models/m`.
    for (const model of ['https://api.example/model?k=1', 'https://api.example/model#top', 'https://api.example/?']) {
      expect(() => new FieldcastClient({ applicationId: 'app', applicationKey: 'key', baseUrls: { model } }).model).toThrow(
        /baseUrls\.model .*query or a fragment/,
      );
    }
  });
});

describe('credentials', () => {
  const modelWith = (applicationId: unknown, applicationKey: unknown, urls: string[] = []) =>
    new FieldcastClient({
      applicationId: applicationId as string,
      applicationKey: applicationKey as string,
      baseUrls: { model: 'https://api.example/model' },
      fetch: (async (input: string) => (urls.push(input), Response.json([]))) as typeof globalThis.fetch,
    }).model;

  test('are sent as HTTP Basic over their UTF-8 bytes', async () => {
    const headers: Headers[] = [];
    const model = new FieldcastClient({
      applicationId: 'app',
      applicationKey: 'kéy',
      baseUrls: { model: 'https://api.example/model' },
      fetch: (async (_input: string, init?: RequestInit) => (headers.push(new Headers(init?.headers)), Response.json([]))) as typeof fetch,
    }).model;
    await model.listModels();
    expect(headers[0]!.get('authorization')).toBe(`Basic ${Buffer.from('app:kéy', 'utf8').toString('base64')}`);
  });

  test('that HTTP Basic cannot carry, or that are missing, are a TypeError before anything is sent', () => {
    // RFC 7617 §2: the first colon ends the user-id, and neither part may hold a control character;
    // a key read from a file with its newline, or an unset variable, would otherwise be a bare 401.
    const urls: string[] = [];
    for (const [id, key] of [
      ['app:1', 'key'],
      ['', 'key'],
      [undefined, 'key'],
      ['app', ''],
      ['app', undefined],
      ['app', 'key\n'],
      ['app\t', 'key'],
    ]) {
      expect(() => modelWith(id, key, urls)).toThrow(TypeError);
    }
    expect(() => modelWith('app', 'key:with:colons', urls)).not.toThrow();
    expect(urls).toEqual([]);
  });
});

describe('error answers', () => {
  const problem = {
    type: 'urn:fieldcast:problem:invalid_parameter',
    title: 'Bad Request',
    status: 400,
    detail: 'limit must be a positive integer such as 24',
    id: 'invalid_parameter',
    message: 'limit must be a positive integer such as 24',
    errors: [{ path: 'limit', message: 'limit must be a positive integer such as 24' }],
  };
  const schemas = new Proxy({}, { get: () => ({ parse: (d: unknown) => d }) }) as never;

  test('throw a FieldcastApiError carrying the problem body', async () => {
    const { model } = recording(() => Response.json(problem, { status: 400, headers: { 'content-type': 'application/problem+json' } }));
    const err = (await model
      .typed(schemas)
      .listForecasts('synthetic-global')
      .catch((e: unknown) => e)) as FieldcastApiError;
    expect(err).toBeInstanceOf(FieldcastApiError);
    expect(err.status).toBe(400);
    expect(err.problem).toEqual(problem);
  });

  test('name the method and the URL the client requested, even when the Response has no url', async () => {
    // A Response built by a given fetch (a mock, a cache) has an empty `url`.
    const { model } = recording(() => Response.json(problem, { status: 400 }));
    const typed = model.typed(schemas);
    const requested = 'GET https://api.example/model/models/synthetic-global/forecasts?limit=0';
    const err = (await typed.listForecasts('synthetic-global', { limit: 0 }).catch((e: unknown) => e)) as FieldcastApiError;
    expect(err).toBeInstanceOf(FieldcastApiError);
    expect(err.request).toBe(requested);
    expect(err.message).toBe(`${requested}: 400 invalid_parameter: ${problem.message}`);
    const csv = (await typed.getLatestTimeSeriesCsv('m', 1, 2).catch((e: unknown) => e)) as FieldcastApiError;
    expect(csv.request).toBe('GET https://api.example/model/models/m/latest-forecast/timeseries/1/2');
  });

  test('name the URL requested, not the one a redirect ended at', async () => {
    const redirected = Response.json(problem, { status: 400 });
    Object.defineProperty(redirected, 'url', { value: 'https://elsewhere.example/x' });
    const { model } = recording(() => redirected);
    const err = (await model
      .typed(schemas)
      .getModel('m')
      .catch((e: unknown) => e)) as FieldcastApiError;
    expect(err.request).toBe('GET https://api.example/model/models/m');
  });

  test('a problem body without Fieldcast members (a gateway) keeps its RFC 9457 detail and status', async () => {
    const gateway = { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'upstream is restarting' };
    const { model } = recording(() => Response.json(gateway, { status: 503, headers: { 'retry-after': '7' } }));
    const err = (await model
      .typed(schemas)
      .listModels()
      .catch((e: unknown) => e)) as FieldcastApiError;
    expect(err.problem).toMatchObject({ id: 'http_503', message: 'upstream is restarting', status: 503, title: 'Service Unavailable' });
    expect(err.retryAfter).toBe(7);
  });

  test('a 429 says how long to wait (Retry-After, RFC 9110 §10.2.3)', async () => {
    const limited = { ...problem, status: 429, title: 'Too Many Requests', id: 'too_many_requests', message: 'slow down' };
    const { model } = recording(() => Response.json(limited, { status: 429, headers: { 'retry-after': '2' } }));
    const err = (await model
      .typed(schemas)
      .listModels()
      .catch((e: unknown) => e)) as FieldcastApiError;
    expect(err.problem.id).toBe('too_many_requests');
    expect(err.retryAfter).toBe(2);
    expect(err.headers.get('retry-after')).toBe('2');
  });

  test('Retry-After is read only in its RFC 9110 forms: a malformed value is no delay, never "ask again now"', async () => {
    const retryAfter = async (value: string) => {
      const { model } = recording(() => Response.json(problem, { status: 503, headers: { 'retry-after': value } }));
      return (
        (await model
          .typed(schemas)
          .listModels()
          .catch((e: unknown) => e)) as FieldcastApiError
      ).retryAfter;
    };
    // Date.parse reads "1.5" as 5 January 2001 and "-1" as 2001: a time past, which would be 0.
    for (const malformed of ['1.5', '-1', '1 2', '120s', 'soon'])
      expect([malformed, await retryAfter(malformed)]).toEqual([malformed, undefined]);
    const ahead = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000);
    const [day, date, month, year, time] = ahead.toUTCString().replace(',', '').split(' '); // Mon 07 Dec 2026 02:23:28 GMT
    // RFC 9110 §5.6.7: a recipient reads the two obsolete forms too; asctime's is UTC though it names no zone.
    const forms = [
      ahead.toUTCString(),
      `${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][ahead.getUTCDay()]}, ${date}-${month}-${year!.slice(2)} ${time} GMT`,
      `${day} ${month} ${String(Number(date)).padStart(2, ' ')} ${time} ${year}`,
    ];
    for (const form of forms) expect([form, [59, 60].includes((await retryAfter(form))!)]).toEqual([form, true]);
  });

  test("an error body that is not JSON (a proxy's HTML page, plain text, nothing) is a FieldcastApiError, never a parse error", async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    for (const [body, message] of [
      [html, html],
      ['upstream timed out', 'upstream timed out'],
      ['', 'HTTP 502'],
      ['{"id": "truncated', '{"id": "truncated'],
    ] as const) {
      const { model } = recording(() => new Response(body, { status: 502, headers: { 'content-type': 'text/html', 'retry-after': '3' } }));
      const err = (await model
        .typed(schemas)
        .getModel('m')
        .catch((e: unknown) => e)) as FieldcastApiError;
      expect(err).toBeInstanceOf(FieldcastApiError);
      expect(err.status).toBe(502);
      expect(err.problem).toEqual({ id: 'http_502', message, status: 502 });
      expect(err.retryAfter).toBe(3);
    }
  });

  test('a Fieldcast problem is surfaced whole: status, id to branch on, detail, errors and retryAfter', async () => {
    const unavailable = {
      ...problem,
      status: 503,
      title: 'Service Unavailable',
      id: 'weather_unavailable',
      detail: 'no data',
      message: 'no data',
    };
    const { model } = recording(
      () =>
        new Response(JSON.stringify(unavailable), {
          status: 503,
          headers: { 'content-type': 'application/problem+json', 'retry-after': '30' },
        }),
    );
    const err = (await model
      .typed(schemas)
      .getTimeSeries(FORECAST, 'temperature', 1, 2)
      .catch((e: unknown) => e)) as FieldcastApiError;
    expect([err.status, err.problem.id, err.problem.detail, err.problem.errors, err.retryAfter]).toEqual([
      503,
      'weather_unavailable',
      'no data',
      problem.errors,
      30,
    ]);
  });
});
