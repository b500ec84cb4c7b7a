import { availableParallelism } from 'node:os';
import { Api } from '@fieldcast/kit';
import type { GridSource } from '@fieldcast/weather';
import { ConfigError, FleetEnv, parseEnv } from '../src/env.js';
import { defineService } from '../src/needs.js';
import { startTestFleet } from '../src/testing.js';

/* Worker threads for heavy computation: their number, and their release when a service stops (docs/decisions/0051-heavy-work-in-worker-threads.md). */
const weather = { label: 'given' } as unknown as GridSource;

it('a service that declares weather is given every core but one as compute threads, at least one; its stop runs when the fleet closes', async () => {
  const stopped: unknown[] = [];
  let given: number | undefined;
  const computing = defineService({
    area: 'computing',
    port: 1,
    title: 'Computing',
    description: 'weather and a stop',
    needs: { weather: true },
    api(deps) {
      given = deps.computeThreads;
      return new Api();
    },
    async stop(deps) {
      stopped.push(deps);
    },
  });
  const fleet = await startTestFleet([computing], { weather });
  expect(given).toBe(Math.max(1, availableParallelism() - 1));
  expect(stopped).toEqual([]);
  const deps = fleet.deps('computing');
  await fleet.close();
  expect(stopped).toEqual([deps]);
});

it('FIELDCAST_COMPUTE_THREADS: a whole number from 0 (inline), else start-up stops naming it', () => {
  expect(parseEnv(FleetEnv, { FIELDCAST_COMPUTE_THREADS: '0' }).FIELDCAST_COMPUTE_THREADS).toBe(0);
  expect(parseEnv(FleetEnv, { FIELDCAST_COMPUTE_THREADS: '3' }).FIELDCAST_COMPUTE_THREADS).toBe(3);
  expect(parseEnv(FleetEnv, {}).FIELDCAST_COMPUTE_THREADS).toBeUndefined();
  for (const bad of ['-1', '1.5', 'many']) {
    expect(() => parseEnv(FleetEnv, { FIELDCAST_COMPUTE_THREADS: bad })).toThrow(ConfigError);
    expect(() => parseEnv(FleetEnv, { FIELDCAST_COMPUTE_THREADS: bad })).toThrow(/FIELDCAST_COMPUTE_THREADS/);
  }
});
