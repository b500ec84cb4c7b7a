import express, { type Request } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Api, createServiceApp, csvForm, type Account, type ServiceDefinition } from '../src/index.js';
import { csvAsked, csvFileName, csvText, sendCsv } from '../src/csv.js';
import { testDeps } from './deps.js';

/* RFC 4180 (section 2) as the CSV answers write it, and which Accept headers choose CSV over JSON. */
describe('csvText (RFC 4180)', () => {
  it('a header row, CRLF after every record, numbers as JSON writes them, empty cells for null', () => {
    expect(
      csvText({
        columns: ['latitude', 'value (mm/hr)'],
        rows: [
          [42.0308, 0.1],
          [-36.9, null],
          [1e21, undefined],
        ],
      }),
    ).toBe('latitude,value (mm/hr)\r\n42.0308,0.1\r\n-36.9,\r\n1e+21,\r\n');
  });

  it('fields with a comma, a double quote, CR or LF are quoted, their quotes doubled (RFC 4180 section 2, rules 6 and 7)', () => {
    const text = csvText({
      columns: ['name', 'note, with comma'],
      rows: [
        ['say "hi"', 'line\nbreak'],
        ['cr\rhere', 'plain'],
      ],
    });
    expect(text).toBe('name,"note, with comma"\r\n"say ""hi""","line\nbreak"\r\n"cr\rhere",plain\r\n');
  });

  it('a text cell a spreadsheet would run as a formula gets a leading apostrophe; numbers stay numbers (OWASP CSV injection)', () => {
    const text = csvText({
      columns: ['site', 'value'],
      rows: [
        ['=HYPERLINK("http://x","y")', -1.5],
        ['+1', -0],
        ['-2+3', 0],
        ['@SUM(A1)', null],
        ['\tx', 1],
        ['\rx', 2],
        ['a=b', -3],
      ],
    });
    expect(text).toBe(
      'site,value\r\n' +
        '"\'=HYPERLINK(""http://x"",""y"")",-1.5\r\n' +
        "'+1,0\r\n" +
        "'-2+3,0\r\n" +
        "'@SUM(A1),\r\n" +
        "'\tx,1\r\n" +
        '"\'\rx",2\r\n' +
        'a=b,-3\r\n',
    );
  });

  it('without its header row when asked (RFC 4180 section 3, header=absent)', () => {
    expect(csvText({ columns: ['a', 'b'], rows: [[1, 'x']] }, { header: false })).toBe('1,x\r\n');
  });

  it('a row of another width than the header is a programming error', () => {
    expect(() => csvText({ columns: ['a', 'b'], rows: [[1]] })).toThrow(/1 fields under a header of 2/);
  });
});

describe('csvAsked', () => {
  const accept = (header?: string) =>
    csvAsked({ headers: header === undefined ? {} : { accept: header } } as Request, 'fieldcast') !== null;
  it.each([
    [undefined, false],
    ['*/*', false],
    ['application/json', false],
    ['text/csv', true],
    ['text/*', true],
    ['text/csv;q=0', false],
    ['text/csv, application/json', true],
    ['application/json, text/csv', false],
    ['application/json;q=0.5, text/csv', true],
    ['text/csv;q=0.5, application/vnd.fieldcast+json; version=1', false],
    ['text/csv;q=0.5, image/png', true],
    // a version this API does not serve is no JSON it would answer with
    ['application/vnd.fieldcast+json; version=2, text/csv;q=0.1', true],
    ['application/vnd.fieldcast+json; version=1, text/csv;q=0.1', false],
    // the most specific range decides a type's quality (RFC 9110 section 12.5.1)
    ['text/*, text/csv;q=0, application/json;q=0.5', false],
    ['text/csv;q=0, text/*', false],
    ['text/csv;q=0.9, */*', false],
    ['application/*;q=0.1, */*, text/csv;q=0.5', true],
    // another vendor's JSON is none this API serves
    ['application/vnd.acme+json, text/csv;q=0.5', true],
    // at one quality the more specific range wins before the order (RFC 9110 section 12.5.1)
    ['*/*, text/csv', true],
    ['*/*;q=0.5, text/csv;q=0.5', true],
    ['application/*, text/csv', true],
    ['text/csv, application/*', true],
    ['text/*, application/json', false],
    ['text/*, application/vnd.fieldcast+json', false],
    ['application/*, text/*', false],
    ['text/*, application/*', true],
    ['text/*;q=0.5, */*;q=0.5', true],
  ])('Accept %s: %s', (header, csv) => {
    expect(accept(header)).toBe(csv);
  });
});

describe('an operation with a CSV form', () => {
  const ACCOUNT: Account = { id: '3b0f8c1e-2d4a-4c6b-8e9f-0a1b2c3d4e5f', name: 'Probe', handle: 'probe' };
  const basic = `Basic ${Buffer.from(`${ACCOUNT.id}:key`).toString('base64')}`;
  const series: ServiceDefinition = {
    area: 'series',
    title: 'Series',
    description: 'a service for testing CSV answers',
    needs: {},
    api: () =>
      new Api().op({
        method: 'get',
        path: '/series',
        summary: 'a series',
        response: { status: 200, description: 'the series' },
        csv: csvForm<{ value: number }>('one row', (r) => ({ columns: ['value (mm)'], rows: [[r.value]] })),
        handle: () => ({ value: 1.5 }),
      }),
  };
  const app = createServiceApp(
    series,
    testDeps({
      cachedAccount: () => undefined,
      authenticate: async (id, key) => (id === ACCOUNT.id && key === 'key' ? ACCOUNT : null),
      findAccount: async () => null,
    }),
  );

  const get = (accept?: string) => {
    const req = request(app).get('/series').set('Authorization', basic);
    return accept === undefined ? req : req.set('Accept', accept);
  };

  it('JSON, CSV and 406 answers all say Vary: Accept (RFC 9110 section 12.5.5)', async () => {
    for (const [accept, status] of [
      [undefined, 200],
      ['application/json', 200],
      ['text/csv', 200],
      ['*/*, text/csv', 200],
      ['image/png', 406],
    ] as const) {
      const res = await get(accept);
      const vary = String(res.headers.vary).split(/\s*,\s*/);
      expect([accept, res.status, vary.includes('Accept')]).toEqual([accept, status, true]);
    }
  });

  it('text/csv beside */* at the same quality is CSV: the more specific range wins (RFC 9110 section 12.5.1)', async () => {
    const res = await get('*/*, text/csv');
    expect([res.headers['content-type'], res.text]).toEqual(['text/csv; charset=utf-8; header=present', 'value (mm)\r\n1.5\r\n']);
  });

  it.each(['text/csv;header=absent', 'text/csv; header="absent"', 'text/csv; header=ABSENT, application/json;q=0.5'])(
    'Accept %s: the rows without the header row, said so in the Content-Type (RFC 4180 section 3)',
    async (accept) => {
      const res = await get(accept);
      expect([res.status, res.headers['content-type'], res.text]).toEqual([200, 'text/csv; charset=utf-8; header=absent', '1.5\r\n']);
    },
  );

  it.each(['text/csv', 'text/csv;header=present', 'text/csv;header=other', 'text/csv;header=absent;q=0.5, text/csv'])(
    'Accept %s: the header row, header=present',
    async (accept) => {
      const res = await get(accept);
      expect([res.status, res.headers['content-type'], res.text]).toEqual([
        200,
        'text/csv; charset=utf-8; header=present',
        'value (mm)\r\n1.5\r\n',
      ]);
    },
  );

  it.each(['text/csv;charset=utf-8', 'text/csv; charset="UTF-8"', 'text/csv;charset=utf8'])(
    'Accept %s: CSV, in the UTF-8 it names',
    async (accept) => {
      const res = await get(accept);
      expect([res.status, res.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8; header=present']);
    },
  );

  // Every answer is UTF-8 (RFC 8259 section 8.1 for JSON; CSV as 0243 writes it): a range that
  // names another charset asks for a representation the service never makes (RFC 9110 section 12.5.1).
  it('a range naming another charset is refused: JSON where the Accept also takes it, else 406 saying answers are UTF-8', async () => {
    const json = await get('text/csv;charset=latin1, application/json;q=0.5');
    expect([json.status, json.headers['content-type']]).toEqual([200, 'application/vnd.fieldcast+json; version=1; charset=utf-8']);
    const refused = await get('text/csv;charset=ISO-8859-1');
    expect([refused.status, refused.body.detail]).toEqual([
      406,
      'Cannot produce text/csv;charset=ISO-8859-1; this operation serves application/vnd.fieldcast+json; version=1, application/json and text/csv, each in UTF-8',
    ]);
  });

  it('a CSV answer is an attachment named for its path (RFC 6266); a JSON answer is not', async () => {
    expect((await get('text/csv')).headers['content-disposition']).toBe('attachment; filename="series.csv"');
    expect((await get('application/json')).headers['content-disposition']).toBeUndefined();
    // CORS: a browser script on another origin may read the name to save the file under
    const cors = await get('text/csv').set('Origin', 'https://example.org');
    expect(cors.headers['access-control-expose-headers']?.split(',')).toContain('Content-Disposition');
    const doc = (await request(app).get('/openapi.json')).body;
    expect(doc.paths['/series'].get.responses['200'].headers['Content-Disposition'].description).toMatch(/^With text\/csv: attachment/);
  });

  it('a 406 names CSV among what the operation serves (RFC 9110 section 15.5.7)', async () => {
    for (const accept of ['application/csv', 'text/csv;q=0', 'text/html, application/json;q=0']) {
      const res = await request(app).get('/series').set('Accept', accept).set('Authorization', basic);
      expect([accept, res.status, res.body.detail]).toEqual([
        accept,
        406,
        `Cannot produce ${accept}; this operation serves application/vnd.fieldcast+json; version=1, application/json and text/csv`,
      ]);
    }
    const csv = await request(app).get('/series').set('Accept', 'text/csv').set('Authorization', basic);
    expect([csv.status, csv.text]).toEqual([200, 'value (mm)\r\n1.5\r\n']);
  });
});

describe('csvFileName', () => {
  it.each([
    ['/series', 'series.csv'],
    ['/growing-degree-days/42.03/-93.6', 'growing-degree-days_42.03_-93.6.csv'],
    ['/hourly-relative-humidity/batch', 'hourly-relative-humidity_batch.csv'],
    ['/forecasts/0b7f2c3e/variables/temperature/timeseries/42/-93', 'forecasts_0b7f2c3e_variables_temperature_timeseries_42_-93.csv'],
    // only letters, digits, dot and hyphen: no quote, slash, space or other byte reaches the header
    ['/observation-sets/a%22b%20c%2Fd', 'observation-sets_a-b-c-d.csv'],
    ['/x/%C3%A9t%C3%A9', 'x_-t-.csv'],
    ['/', 'answer.csv'],
  ])('%s is saved as %s', (path, name) => {
    expect(csvFileName(path)).toBe(name);
  });
});

describe('sendCsv: a table written as its rows come', () => {
  const ROWS = 300_000;
  let pulled = 0;
  let done = false;
  let started: () => void = () => {};
  const table = () => ({
    columns: ['i', 'note'],
    rows: (function* () {
      for (pulled = 0; pulled < ROWS; pulled++) {
        if (pulled === 0) started();
        yield [pulled, 'a row of a large batch'];
      }
      done = true;
    })(),
  });
  const app = express();
  app.get('/big', (_req, res) => void sendCsv(res, 200, table()));
  let waits = 0;
  let listenersLeft: Promise<number> = Promise.resolve(-1);
  app.get('/slowly-read', (_req, res) => {
    const write = res.write.bind(res) as (chunk: string) => boolean;
    res.write = ((chunk: string) => {
      const flowing = write(chunk);
      if (!flowing) waits += 1;
      return flowing;
    }) as typeof res.write;
    listenersLeft = sendCsv(res, 200, table()).then(() => res.listenerCount('drain') + res.listenerCount('close'));
  });
  let doneWhenQuick: boolean | undefined;
  app.get('/quick', (_req, res) => {
    doneWhenQuick = done;
    res.send('ok');
  });
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('other requests are answered while a large table is written; the text is the whole table', async () => {
    done = false;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const big = fetch(`${base}/big`).then((r) => r.text());
    await begun;
    expect(await (await fetch(`${base}/quick`)).text()).toBe('ok');
    const text = await big;
    expect(doneWhenQuick).toBe(false);
    expect(text).toBe(csvText({ columns: ['i', 'note'], rows: Array.from({ length: ROWS }, (_, i) => [i, 'a row of a large batch']) }));
  });

  it('a client reading slowly is waited for, and the waits leave no listener behind', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/slowly-read`, (res) => {
        // a chunk at a time, a millisecond apart: the answer's writes wait on the client
        res.on('data', () => {
          res.pause();
          setTimeout(() => res.resume(), 1);
        });
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
    const left = await listenersLeft;
    expect(waits).toBeGreaterThan(10);
    // what Node's own response keeps, not one per wait
    expect(left).toBeLessThan(5);
  });

  it('a client gone stops the writing', async () => {
    done = false;
    const gone = new Promise<void>((resolve) => {
      const req = http.get(`${base}/big`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
    });
    await gone;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(done).toBe(false);
    expect(pulled).toBeLessThan(ROWS);
  });
});
