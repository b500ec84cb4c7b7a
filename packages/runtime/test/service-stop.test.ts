import { availableParallelism } from 'node:os';
import { Api } from '@fieldcast/kit';
import type { GridSource } from '@fieldcast/weather';
import { ConfigError, FleetEnv, parseEnv } from '../src/env.js';
import { defineService } from '../src/needs.js';
import { startTestFleet } from '../src/testing.js';

/* Worker threads for heavy computation: their number, and their release when a service stops (docs/decisions/0051-heavy-work-in-worker-threads.md). */
const weather = { label: 'given' } as unknown as GridSource;

it('a service that declares weather is given every core but one as compute threads, at least one; what its api started closes with the fleet', async () => {
  const closed: number[] = [];
  let given: number | undefined;
  let started = 0;
  const computing = defineService({
    area: 'computing',
    port: 1,
    title: 'Computing',
    description: 'weather and threads to close',
    needs: { weather: true },
    api(deps) {
      given = deps.computeThreads;
      // each instance closes what it started, with no map from instances to their threads
      const instance = ++started;
      return { api: new Api(), close: async () => void closed.push(instance) };
    },
  });
  const first = await startTestFleet([computing], { weather });
  const second = await startTestFleet([computing], { weather });
  expect(given).toBe(Math.max(1, availableParallelism() - 1));
  expect(closed).toEqual([]);
  await second.close();
  expect(closed).toEqual([2]);
  await first.close();
  expect(closed).toEqual([2, 1]);
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
