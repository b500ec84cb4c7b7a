import express, { type Request } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Api, createServiceApp, csvForm, type Account, type ServiceDefinition } from '../src/index.js';
import { csvText, prefersCsv, sendCsv } from '../src/csv.js';
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

  it('a row of another width than the header is a programming error', () => {
    expect(() => csvText({ columns: ['a', 'b'], rows: [[1]] })).toThrow(/1 fields under a header of 2/);
  });
});

describe('prefersCsv', () => {
  const accept = (header?: string) => prefersCsv({ headers: header === undefined ? {} : { accept: header } } as Request, 'fieldcast');
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
