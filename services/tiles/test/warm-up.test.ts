import { setImmediate as nextTurn } from 'node:timers/promises';
import { OPENING_VIEW } from '@fieldcast/console/opening-view';
import { frameIndexAcrossClose, startTestFleet } from '@fieldcast/runtime/testing';
import { climateLatticeRowsWhole } from '@fieldcast/weather';
import request from 'supertest';
import { tilesService } from '../src/definition.js';
import { openingTiles } from '../src/domain/opening-view.js';
import { FunctionSource } from './function-source.js';

/*
 * The tiles area's warm-up at start reads the whole climate lattice into the table its process
 * shares with its compute threads (docs/decisions/0330-climate-lattice-shared-with-threads.md): a
 * world view's first tiles read most of its rows. The suite's global setup writes the lattice file.
 * Then it draws the console's opening view of the newest frame ahead
 * (docs/decisions/0356-opening-view-drawn-ahead.md), here on a hand-made weather that counts its
 * reads and is cheap to draw.
 */
describe("the tiles area's warm-up", () => {
  // First in the file: the lattice's table is the process's, and the next test reads it whole.
  it('stops reading the climate lattice with the area: closed during the read, it reads no further row', async () => {
    const weather = new FunctionSource({ air_temperature: (lon, lat) => lat / 3 + lon / 20 }, 1);
    const fleet = await startTestFleet([tilesService], { background: true, weather });
    const rows = () => climateLatticeRowsWhole().whole;
    void fleet.warm();
    // The read grows the table turn after turn; the synthetic world's warm-up before it, in one turn.
    let last = rows(),
      grown = 0;
    while (grown < 2) {
      await nextTurn();
      grown = rows() > last ? grown + 1 : 0;
      last = rows();
    }
    await fleet.close();
    const atClose = rows();
    for (let i = 0; i < 20; i++) await nextTurn();
    expect(rows()).toBe(atClose);
    expect(atClose).toBeLessThan(climateLatticeRowsWhole().of);
  }, 60_000);

  it("reads every row of the climate lattice into its process's table, then draws the opening view before it is asked for", async () => {
    const weather = new FunctionSource({ air_temperature: (lon, lat) => lat / 3 + lon / 20 }, 1);
    const fleet = await startTestFleet([tilesService], { background: true, weather });
    try {
      const { whole, of } = climateLatticeRowsWhole();
      expect(whole).toBeLessThan(of);
      expect(weather.calls).toEqual({ window: 0, point: 0 });
      await fleet.warm();
      expect(climateLatticeRowsWhole()).toEqual({ whole: of, of });
      // Every opening tile drawn: the last one's request is answered without a read of the weather.
      const reads = weather.calls.window + weather.calls.point;
      expect(reads).toBeGreaterThan(0);
      const app = fleet.app('tiles');
      const { auth } = await fleet.account('viewer');
      const frames = await request(app).get(`/v2/products/${OPENING_VIEW.product}/frames.json?limit=1000`).set('Authorization', auth);
      const shown = (frames.body as { id: string; validTime: string }[]).find((f) => Date.parse(f.validTime) <= Date.now())!;
      const last = openingTiles().at(-1)!;
      const tile = await request(app).get(`/v2/frames/${shown.id}/tile/${last.z}/${last.x}/${last.y}.png`).set('Authorization', auth);
      expect(tile.status).toBe(200);
      expect(weather.calls.window + weather.calls.point).toBe(reads);
    } finally {
      await fleet.close();
    }
  }, 180_000);

  it('stops with the area: the frame index it started does not grow on once the area is closed', async () => {
    const weather = new FunctionSource({ air_temperature: (lon, lat) => lat / 3 + lon / 20 }, 1);
    const { atClose, later } = await frameIndexAcrossClose([tilesService], { weather });
    expect(later).toBe(atClose);
  }, 60_000);
});
