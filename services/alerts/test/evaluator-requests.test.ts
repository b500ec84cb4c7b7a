import { createLogger } from '@fieldcast/kit';
import { Evaluator, type PassResult } from '../src/evaluator.js';
import type { RuleStates } from '../src/store.js';
import { ScriptedWeather } from './scripted-weather.js';

/**
 * Asks for passes (docs/decisions/0271-alert-evaluation.md): a burst of announcements of new
 * weather while a pass runs makes one more pass, at the latest clock reading asked, never one
 * per announcement and never two at once.
 */
it('shares the next pass among the asks made while one runs, at the latest clock reading', async () => {
  const evaluator = new Evaluator({} as RuleStates, new ScriptedWeather(), createLogger({ level: 'silent' }));
  const passes: number[] = [];
  const gates: (() => void)[] = [];
  let running = 0;
  let most = 0;
  // the passes themselves, held until the test lets each finish
  evaluator.pass = async (nowMs: number): Promise<PassResult> => {
    running += 1;
    most = Math.max(most, running);
    passes.push(nowMs);
    await new Promise<void>((resolve) => gates.push(resolve));
    running -= 1;
    return { rules: nowMs, triggered: 0, cleared: 0, unread: 0 };
  };
  const tick = () => new Promise((r) => setImmediate(r));

  const first = evaluator.request(1000);
  await tick();
  const asks = [evaluator.request(2000), evaluator.request(4000), evaluator.request(3000)];
  await tick();
  expect(passes).toEqual([1000]);
  gates.shift()!();
  expect((await first).rules).toBe(1000);
  await tick();
  expect(passes).toEqual([1000, 4000]);
  gates.shift()!();
  expect((await Promise.all(asks)).map((r) => r.rules)).toEqual([4000, 4000, 4000]);
  expect(most).toBe(1);
  // an ask when none runs makes a pass of its own
  const later = evaluator.request(5000);
  await tick();
  gates.shift()!();
  expect((await later).rules).toBe(5000);
  expect(passes).toEqual([1000, 4000, 5000]);
});
