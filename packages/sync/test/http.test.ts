/**
 * Range fetching against a local archive: adjacent ranges merged, each message
 * checked to be whole, retries with backoff on 5xx, timeouts and cut bodies, and nothing asked of
 * any URL but the configured base.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageRangeError, SourceHttp, SyncConfigError, UpstreamError } from '../src/index.js';
import { mergeAdjacent } from '../src/http.js';
import { encodeMessage } from '../../grib2/test/encode.js';
import { type ArchiveServer, serveArchive } from './archive-server.js';

const GRID = { ni: 4, nj: 3, lat1: 10, lon1: 0, dLat: 1, dLon: 1 };
const messages = [1, 2, 3, 4].map((k) =>
  encodeMessage(
    Array.from({ length: 12 }, (_, i) => k * 100 + i),
    { grid: GRID, packing: { template: 0, decimal: 0 } },
  ),
);
const offsets = messages.map((_, k) => messages.slice(0, k).reduce((s, m) => s + m.length, 0));
const range = (k: number) => ({ offset: offsets[k]!, length: messages[k]!.length });

let root: string;
let server: ArchiveServer;
let other: ArchiveServer;
const fast = { retries: 2, backoffMs: 5, timeoutMs: 300 };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'sync-http-'));
  writeFileSync(join(root, 'file.grib2'), Buffer.concat(messages));
  writeFileSync(join(root, 'file.idx'), 'inventory\n');
  // The last message cut short, as a file still being uploaded.
  writeFileSync(join(root, 'short.grib2'), Buffer.concat(messages).subarray(0, offsets[3]! + 50));
  server = await serveArchive(root);
  other = await serveArchive(root);
});
afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  server.log.length = 0;
  other.log.length = 0;
});

it('merges ranges that follow each other, and only those', () => {
  const r = [range(3), range(0), range(1), range(0)];
  expect(mergeAdjacent(r)).toEqual([[range(0), range(1)], [range(3)]]);
  expect(
    mergeAdjacent([
      { offset: 0, length: 10 },
      { offset: 11, length: 5 },
    ]),
  ).toHaveLength(2);
  expect(
    mergeAdjacent([
      { offset: 0, length: 10 },
      { offset: 10, length: null },
    ]),
  ).toHaveLength(1);
});

it('fetches the messages asked for in as many requests as there are runs of adjacent ones, and no other bytes', async () => {
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  const got = await http.messages(`${server.baseUrl}/file.grib2`, [range(3), range(0), range(1)]);
  expect(got).toEqual([messages[3], messages[0], messages[1]]);
  expect(server.log.map((r) => r.range)).toEqual([
    `bytes=0-${offsets[2]! - 1}`,
    `bytes=${offsets[3]}-${offsets[3]! + messages[3]!.length - 1}`,
  ]);
  const wanted = messages[0]!.length + messages[1]!.length + messages[3]!.length;
  expect(server.log.reduce((s, r) => s + r.bytes, 0)).toBe(wanted);
  expect(http.stats).toEqual({ requests: 2, bytes: wanted });
});

it('reads a last message that runs to the end of the file (length null, as a .idx gives it)', async () => {
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  const [last] = await http.messages(`${server.baseUrl}/file.grib2`, [{ offset: offsets[3]!, length: null }]);
  expect(last).toEqual(messages[3]);
  expect(server.log[0]!.range).toBe(`bytes=${offsets[3]}-`);
});

it('retries a 500 with backoff and succeeds when the server recovers', async () => {
  server.inject('file.idx', { status: 500 }, 2);
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast, backoffMs: 40 });
  const started = performance.now();
  expect(await http.text(`${server.baseUrl}/file.idx`)).toBe('inventory\n');
  // Two waits before the retries: 40 ms, then 80 ms.
  expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  expect(server.log).toHaveLength(3);
});

it('gives up after its retries with an error naming the URL, the status and the attempts', async () => {
  server.inject('file.idx', { status: 503 }, 3);
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  const error = await http.text(`${server.baseUrl}/file.idx`).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamError);
  expect(error).toMatchObject({ url: `${server.baseUrl}/file.idx`, status: 503, attempts: 3 });
  expect((error as Error).message).toBe(`${server.baseUrl}/file.idx: HTTP 503 (3 attempts)`);
  expect(server.log).toHaveLength(3);
});

it('times a request out and retries it, then names the timeout', async () => {
  server.inject('file.grib2', { hang: true }, 1);
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast, timeoutMs: 200 });
  expect(await http.messages(`${server.baseUrl}/file.grib2`, [range(0)])).toEqual([messages[0]]);
  expect(server.log).toHaveLength(2);

  server.log.length = 0;
  server.inject('file.grib2', { hang: true }, 3);
  const error = await http.messages(`${server.baseUrl}/file.grib2`, [range(0)]).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamError);
  expect(error).toMatchObject({ status: null, attempts: 3 });
  expect((error as Error).message).toMatch(/no answer within 200 ms/);
});

it('retries a body cut short by the connection dropping', async () => {
  server.inject('file.grib2', { cut: true }, 1);
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  expect(await http.messages(`${server.baseUrl}/file.grib2`, [range(1)])).toEqual([messages[1]]);
  expect(server.log.map((r) => r.bytes)).toEqual([messages[1]!.length >> 1, messages[1]!.length]);
});

it('does not retry what will not change: a 404', async () => {
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  await expect(http.text(`${server.baseUrl}/missing.idx`)).rejects.toMatchObject({ status: 404, attempts: 1 });
  expect(server.log).toHaveLength(1);
});

it('refuses a truncated file: the range reaches past its end', async () => {
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  const url = `${server.baseUrl}/short.grib2`;
  const error = await http.messages(url, [range(2), range(3)]).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MessageRangeError);
  expect(error).toMatchObject({ url, offset: offsets[3], length: messages[3]!.length });
  expect((error as Error).message).toBe(
    `${url} bytes ${offsets[3]}-${offsets[3]! + messages[3]!.length - 1}: truncated: 50 of ${messages[3]!.length} bytes received`,
  );
  // A range starting past the end: the server's 416.
  await expect(http.messages(url, [{ offset: offsets[3]! + 1000, length: 10 }])).rejects.toThrow(/beyond the end of the file \(HTTP 416\)/);
});

it('refuses an inventory that does not match its file: a range not starting at a message, or of another length', async () => {
  const http = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  const url = `${server.baseUrl}/file.grib2`;
  await expect(http.messages(url, [{ offset: offsets[1]! + 1, length: messages[1]!.length }])).rejects.toThrow(
    /does not begin with "GRIB"/,
  );
  const error = await http
    .messages(url, [{ offset: offsets[1]!, length: messages[1]!.length + messages[2]!.length }])
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MessageRangeError);
  expect((error as Error).message).toMatch(
    `section 0 gives the message ${messages[1]!.length} bytes, the inventory ${messages[1]!.length + messages[2]!.length}`,
  );
});

it('contacts nothing but the configured base URL: other paths, hosts and redirects are refused', async () => {
  const http = new SourceHttp({ baseUrl: `${server.baseUrl}/mirror`, ...fast });
  await expect(http.text(`${server.baseUrl}/file.idx`)).rejects.toThrow(SyncConfigError);
  await expect(http.text(`${other.baseUrl}/mirror/file.idx`)).rejects.toThrow(/not below the configured base URL/);
  await expect(http.text(`${server.baseUrl}/mirror/../file.idx`)).rejects.toThrow(SyncConfigError);
  expect(server.log).toHaveLength(0);

  const direct = new SourceHttp({ baseUrl: server.baseUrl, ...fast });
  server.inject('file.idx', { redirect: `${other.baseUrl}/file.idx` }, 3);
  await expect(direct.text(`${server.baseUrl}/file.idx`)).rejects.toThrow(/redirect/);
  expect(server.log.map((r) => r.path)).toEqual(['/file.idx', '/file.idx', '/file.idx']);
  expect(other.log).toHaveLength(0);
});
