import fc from 'fast-check';
import { basicAuthHeader, startTestFleet, type TestAccount } from '@fieldcast/runtime/testing';
import { SERVICES } from '../../src/services.js';
import { operationsOf, requestsFor, toWire, type Credentials, type FuzzOperation, type FuzzRequest } from './request-arbitraries.js';
import { resolverOf } from './schema-arbitraries.js';
import { changedSince, settledState, type Snapshot } from './stored-state.js';
import { faultOf } from './answer-faults.js';
import { listenOnLoopback, reproducer, send, type WireResponse } from './wire.js';

/*
 * Every operation of every registered service, fuzzed from its own /openapi.json
 * (docs/decisions/0070-fuzz-suite-from-openapi.md): valid and invalid requests, with and without
 * credentials. Each must be answered below 500; every 4xx must be problem+json (RFC 9457) with
 * type, title, status, id and message; a refused write must leave every table of every service
 * as it was. FUZZ_RUNS sets the requests per operation, FUZZ_SEED the seed.
 *
 * The registry's services are fuzzed in parts, one test file each (fuzz-1.test.ts ...), so the
 * parts run on different test workers; each part starts the whole fleet, so a refused write is
 * checked against every table of every service.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_141_114);
/** how many test files the suite is split into (fuzz-1.test.ts ...) */
export const FUZZ_PARTS = 3;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Registers the fuzz tests of one part of the registry's services: part 1..parts. */
export async function fuzzPart(part: number, parts: number): Promise<void> {
  // The request rate and the failed-authentication throttle are off: with them a long run would
  // mostly measure 429s, and the point is to reach each operation's validation and handler.
  // Their own tests cover them (docs/decisions/0060-limits-per-account.md).
  // The fleet's clock stands still: what the owner reads follows time (a product's endTime moves at
  // its cadence, spec 2.4), and a refused write must be the only thing that could change it.
  const startedMs = Date.now();
  const fleet = await startTestFleet(SERVICES, {
    now: () => new Date(startedMs),
    limits: { requests: { perSecond: 0, burst: 0 }, failedAuth: { perSecond: 0, burst: 0 } },
  });
  const schemas = SERVICES.map((s) => s.area);
  // this part's areas: every parts-th service of the registry from `part`, so a new area joins one
  const fuzzed = SERVICES.filter((_, i) => i % parts === part - 1).map((s) => s.area);
  const servers = new Map(await Promise.all(SERVICES.map(async (s) => [s.area, await listenOnLoopback(fleet.app(s.area))] as const)));
  const documents = new Map(
    await Promise.all(
      SERVICES.map(async (s) => {
        const res = await send(servers.get(s.area)!.port, { method: 'GET', path: '/openapi.json', headers: {} });
        return [s.area, JSON.parse(res.text) as Parameters<typeof operationsOf>[1]] as const;
      }),
    ),
  );
  const operations = SERVICES.flatMap((s) => operationsOf(s.area, documents.get(s.area)!));
  const fuzzedOperations = operations.filter((op) => fuzzed.includes(op.area));

  let owner: TestAccount;
  let other: TestAccount;
  let credentials: Credentials;
  /** ids and handles the fleet has handed out, for path parameters that name something that exists */
  const known: string[] = [];
  /** set by a successful write: its relay and consumers may still be writing */
  let unsettled = true;
  let before: Snapshot = { tables: {}, wal: '' };
  let listsBefore: string[] = [];

  beforeAll(async () => {
    owner = await fleet.account('fuzz-owner');
    other = await fleet.account('fuzz-other');
    credentials = {
      owner: owner.auth,
      other: other.auth,
      wrongKey: basicAuthHeader(owner.id, `${owner.key.slice(0, -1)}${owner.key.endsWith('x') ? 'y' : 'x'}`),
      unknownId: basicAuthHeader('00000000-0000-4000-8000-000000000000', owner.key),
    };
    known.push(owner.id, owner.handle, other.id, other.handle);
  });

  afterAll(async () => {
    for (const server of servers.values()) await server.close();
    await fleet.close();
  });

  /** Lists the owner can read without naming anything (its resources, its feed), as the API answers them. */
  async function ownersLists(): Promise<string[]> {
    const lists = operations.filter((op) => op.method === 'GET' && op.auth && !op.params.some((p) => p.in === 'path' || p.required));
    return Promise.all(
      lists.map(async (op) => {
        const res = await send(servers.get(op.area)!.port, { method: 'GET', path: op.path, headers: { authorization: owner.auth } });
        return `${op.area} GET ${op.path} -> ${res.status} ${res.text}`;
      }),
    );
  }

  /** Where two answers part: the list's request line and some context around the first differing character. */
  function firstDifference(before: string, after: string): string {
    let i = 0;
    while (i < before.length && before[i] === after[i]) i++;
    const head = after.slice(0, after.indexOf(' -> ') + 8);
    return `${head} before …${before.slice(Math.max(0, i - 80), i + 80)}… after …${after.slice(Math.max(0, i - 80), i + 80)}…`;
  }

  /** statuses answered per operation, to check that the requests get past authentication */
  const answered = new Map<FuzzOperation, Set<number>>();

  function remember(res: WireResponse): void {
    if (res.status >= 300 || !res.text.startsWith('{') || known.length > 200) return;
    const id = (JSON.parse(res.text) as { id?: unknown }).id;
    if (typeof id === 'string' && !known.includes(id)) known.push(id);
  }

  async function check(op: FuzzOperation, generated: FuzzRequest): Promise<void> {
    const write = WRITES.has(op.method);
    if (write && unsettled) {
      before = await settledState(fleet.db, schemas);
      listsBefore = await ownersLists();
      unsettled = false;
    }
    const req = toWire(op, generated, credentials, known);
    const res = await send(servers.get(op.area)!.port, req);
    answered.set(op, (answered.get(op) ?? new Set()).add(res.status));
    const fault = faultOf(res, op.failureTypes);
    if (fault) throw new Error(reproducer(req, res, `${op.area}: ${fault} (caller: ${generated.caller})`));
    remember(res);
    if (!write) return;
    if (res.status < 400) {
      unsettled = true;
      return;
    }
    const changed = await changedSince(fleet.db, schemas, before);
    if (changed.length > 0) {
      unsettled = true;
      throw new Error(
        reproducer(req, res, `${op.area}: refused with ${res.status} but changed ${changed.join(', ')} (caller: ${generated.caller})`),
      );
    }
    const listsAfter = await ownersLists();
    const changedLists = listsAfter.flatMap((list, i) => (list === listsBefore[i] ? [] : [firstDifference(listsBefore[i] ?? '', list)]));
    if (changedLists.length > 0) {
      unsettled = true;
      const shown = changedLists.join('\n');
      throw new Error(
        reproducer(
          req,
          res,
          `${op.area}: refused with ${res.status} but the owner's lists changed (caller: ${generated.caller}):\n${shown}`,
        ),
      );
    }
  }

  describe(`fuzz from /openapi.json, part ${part} of ${parts}: ${fuzzed.join(', ')} (seed ${SEED}, ${RUNS} requests per operation; FUZZ_SEED and FUZZ_RUNS override)`, () => {
    it('covers every operation of its services, and the parts every registered service', () => {
      expect(new Set(fuzzedOperations.map((op) => op.area))).toEqual(new Set(fuzzed));
      for (const area of fuzzed) expect(Object.keys(documents.get(area)!.paths).length).toBeGreaterThan(0);
      const inParts = Array.from({ length: parts }, (_, p) => SERVICES.filter((_, i) => i % parts === p).map((s) => s.area));
      expect(inParts.flat().sort()).toEqual([...schemas].sort());
    });

    it('the checks catch a 5xx, a 4xx that is no problem+json or lacks a member, and a stored row (control)', async () => {
      const problem = { type: 'urn:fieldcast:problem:x', title: 'Not Found', status: 404, detail: 'd', id: 'x', message: 'd' };
      const answer = (status: number, type: string, body: unknown) => ({
        status,
        headers: { 'content-type': type },
        text: JSON.stringify(body),
      });
      expect(faultOf(answer(404, 'application/problem+json', problem))).toBeNull();
      expect(faultOf(answer(500, 'application/problem+json', { ...problem, status: 500 }))).toMatch(/500/);
      expect(faultOf(answer(404, 'text/html', problem))).toMatch(/not application\/problem\+json/);
      expect(faultOf(answer(404, 'application/problem+json', { ...problem, id: undefined }))).toMatch(/without id/);
      expect(faultOf(answer(400, 'application/problem+json', problem))).toMatch(/status member is 404/);
      // an area with its own documented failure bodies (the archive) is held to those
      const own = ['application/json', 'application/xml'];
      const error = { apiVersion: '2.0.0', error: { code: 400, message: 'm', errors: [{ reason: 'invalid_parameter', message: 'm' }] } };
      expect(faultOf(answer(400, 'application/json; charset=utf-8', error), own)).toBeNull();
      expect(faultOf(answer(404, 'application/json; charset=utf-8', error), own)).toMatch(/error code is 400/);
      expect(faultOf(answer(400, 'application/problem+json', problem), own)).toMatch(/none of the documented/);
      expect(
        faultOf(
          {
            status: 401,
            headers: { 'content-type': 'application/xml' },
            text: '<?xml version="1.0"?><response><error code="401"/></response>',
          },
          own,
        ),
      ).toBeNull();
      const table = SERVICES.find((s) => s.needs.outbox)!.area;
      const settled = await settledState(fleet.db, schemas);
      expect(await changedSince(fleet.db, schemas, settled)).toEqual([]);
      await fleet.db.knex
        .withSchema(table)
        .table('outbox')
        .insert({ id: '00000000-0000-4000-8000-000000000001', topic: 't', key: 'k', event: {}, sent_at: new Date() });
      const changed = await changedSince(fleet.db, schemas, settled);
      // the same state with the log moved on (a write undone) is no change
      await fleet.db.knex.withSchema(table).table('outbox').where({ id: '00000000-0000-4000-8000-000000000001' }).delete();
      expect(changed).toEqual([`${table}.outbox`]);
      expect(await changedSince(fleet.db, schemas, settled)).toEqual([]);
      unsettled = true;
    });

    it.each(fuzzedOperations.map((op) => [`${op.area} ${op.method} ${op.path}`, op] as const))(
      '%s',
      async (_name, op) => {
        const resolve = resolverOf(documents.get(op.area)! as Parameters<typeof resolverOf>[0]);
        await fc.assert(
          fc.asyncProperty(requestsFor(op, resolve), (generated) => check(op, generated)),
          { seed: SEED, numRuns: RUNS },
        );
        // the requests reached past negotiation and authentication, into validation or the handler
        expect([...(answered.get(op) ?? [])].filter((status) => ![401, 406, 429].includes(status)).length).toBeGreaterThan(0);
      },
      600_000,
    );
  });
}
