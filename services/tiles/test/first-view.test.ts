import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { useTestFleet } from '@fieldcast/runtime/testing';
import { createCatalog, forecastBoundaryMs, frameId, type BBox, type TimeRange, type VariableId } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';
import { FunctionSource } from './function-source.js';

/*
 * A map client's first view of a frame never drawn asks for every tile it shows at once (a full HD
 * screen: about 8 x 5 tiles of 256 pixels), more than an account's 16 heavy requests in flight; those
 * beyond them wait their turn and every tile is drawn, none refused
 * (docs/decisions/0511-heavy-requests-wait-their-turn.md). The weather answers each read after
 * 50 ms, as a store does for a cold tile, so the requests overlap however fast the machine.
 */
class SlowSource extends FunctionSource {
  override async window(variable: VariableId, bbox: BBox, range: TimeRange) {
    await new Promise((r) => setTimeout(r, 50));
    return super.window(variable, bbox, range);
  }
}

const NOW = Date.now();
const t = useTestFleet([tilesService], { weather: new SlowSource({ air_temperature: (lon) => lon / 4 }), now: () => new Date(NOW) });
const temperature = createCatalog().product('air-temperature')!;
// Not the newest frame of the past, which the area may draw ahead of anyone asking.
const frame = frameId(temperature, forecastBoundaryMs(NOW) - 5 * 3_600_000);

let server: Server;
beforeAll(async () => {
  server = t.fleet.app('tiles').listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
});
afterAll(() => new Promise((r) => server.close(r)));

describe('a first view of a frame', () => {
  it('gets all 40 tiles of a full HD screen asked for at once, with the default limits', async () => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tiles = Array.from({ length: 8 * 5 }, (_, k) => ({ x: 3 + (k % 8), y: 4 + Math.floor(k / 8) }));
    const answers = await Promise.all(
      tiles.map(({ x, y }) => request(base).get(`/v2/frames/${frame}/tile/5/${x}/${y}.png`).set('Authorization', t.alice.auth)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(answers.every((r) => r.headers['content-type'] === 'image/png')).toBe(true);
    // 40 tiles drawn on the event loop take seconds on a loaded machine.
  }, 120_000);
});
