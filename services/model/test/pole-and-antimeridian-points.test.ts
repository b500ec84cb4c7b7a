import { DEFAULT_MODELS, SyntheticSource } from '@fieldcast/weather';
import { producedValidTimes, runAt } from '../src/domain/runs.js';
import { TruthReader, variableTimeSeries } from '../src/domain/time-series.js';
import { SAME_PLACES } from '@fieldcast/runtime/testing';

/*
 * A run's series at a point reads one place one value (docs/decisions/0428-one-point-read-per-place.md):
 * every longitude at a pole is the one pole, and longitude 180 is -180, for the world's values and
 * the run's error alike.
 */
const model = DEFAULT_MODELS.find((m) => m.name === 'synthetic-global')!;
const INIT_MS = Date.UTC(2025, 5, 20, 0);
const NOW_MS = Date.UTC(2025, 5, 22, 12);
const world = new SyntheticSource({ now: () => NOW_MS });
const run = runAt(model, INIT_MS);
/** Leads from the init time to two days, every sixth hour. */
const validMs = producedValidTimes(run, NOW_MS)
  .filter((t) => t <= INIT_MS + 48 * 3_600_000)
  .filter((_, k) => k % 6 === 0);

const series = (variable: (typeof model.variables)[number], lon: number, lat: number) =>
  variableTimeSeries(run, variable, lat, lon, validMs, new TruthReader(world, lat, lon, validMs));

describe.each(SAME_PLACES)('(%p, %p) is (%p, %p)', (lon, lat, placeLon, placeLat) => {
  it.each(model.variables.map((v) => [v.name, v] as const))('%s', async (_name, variable) => {
    expect(await series(variable, lon, lat)).toEqual(await series(variable, placeLon, placeLat));
  });
});
