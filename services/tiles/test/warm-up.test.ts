import { eventually, startTestFleet } from '@fieldcast/runtime/testing';
import { climateLatticeRowsWhole } from '@fieldcast/weather';
import { tilesService } from '../src/definition.js';

/*
 * The tiles area's warm-up at start reads the whole climate lattice into the table its process
 * shares with its compute threads (docs/decisions/0330-climate-lattice-shared-with-threads.md): a
 * world view's first tiles read most of its rows. The suite's global setup writes the lattice file.
 */
describe("the tiles area's warm-up", () => {
  it("reads every row of the climate lattice into its process's table", async () => {
    const fleet = await startTestFleet([tilesService], { background: true });
    try {
      const { whole, of } = climateLatticeRowsWhole();
      expect(whole).toBeLessThan(of);
      fleet.warm();
      await eventually(() => expect(climateLatticeRowsWhole()).toEqual({ whole: of, of }), 120_000, 100);
    } finally {
      await fleet.close();
    }
  }, 180_000);
});
