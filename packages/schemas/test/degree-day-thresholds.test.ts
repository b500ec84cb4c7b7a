/**
 * A degree-day base or cap is a temperature some air on Earth could have: -100 to 100 °C, which is
 * -148 to 212 °F, holds the WMO's record extremes (-89.2 °C at Vostok, 21 July 1983; 56.7 °C at
 * Death Valley, 10 July 1913) with a margin. Past it the value is a typo, refused by name in the
 * requested scale rather than answered with 0 degree days
 * (docs/decisions/0485-limits-count-characters-and-thresholds-are-earthly.md).
 */
import { degreeDayQuerySchema } from '../src/index.js';

const NOW = () => new Date('2024-05-10T12:00:00Z');
const schema = degreeDayQuerySchema(NOW);
const parse = (query: Record<string, string>) => schema.safeParse({ start: '2024-05-01', end: '2024-05-03', ...query });
const faults = (query: Record<string, string>) => {
  const result = parse(query);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('degree-day thresholds: temperatures air on Earth could have', () => {
  it.each([
    ['celsius', { base: '-100', method: 'single-sine', cap: '100' }],
    ['celsius', { base: '-89.2', method: 'single-sine', cap: '56.7' }],
    ['fahrenheit', { scale: 'fahrenheit', base: '-148', method: 'single-sine', cap: '212' }],
    // every value the tests, the console and the docs use
    ['celsius', { base: '10', method: 'single-sine', cap: '30' }],
    ['fahrenheit', { scale: 'fahrenheit', base: '50', method: 'single-sine', cap: '86' }],
    ['celsius', { base: '-40' }],
    ['celsius', { base: '0.0000001', method: 'single-sine', cap: '0.0000002' }],
  ])('the edges and the customary values are accepted (%s %j)', (_scale, query) => {
    const result = parse(query);
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ base: Number(query.base) });
  });

  it.each([
    ['a base of 1e24 written out', { base: '1000000000000000000000000' }, 'base', 'base must be from -100 to 100 °C'],
    ['a base just past 100 °C', { base: '100.01' }, 'base', 'base must be from -100 to 100 °C'],
    ['a base just below -100 °C', { base: '-100.5' }, 'base', 'base must be from -100 to 100 °C'],
    ['a base in kelvin', { base: '283.15' }, 'base', 'base must be from -100 to 100 °C'],
    ['a base past 212 °F', { scale: 'fahrenheit', base: '213' }, 'base', 'base must be from -148 to 212 °F'],
    ['a base below -148 °F', { scale: 'Fahrenheit', base: '-149' }, 'base', 'base must be from -148 to 212 °F'],
    ['a cap of 1e21 written out', { method: 'single-sine', cap: '1000000000000000000000' }, 'cap', 'cap must be from -100 to 100 °C'],
    ['a cap past 212 °F', { scale: 'fahrenheit', method: 'single-sine', cap: '212.5' }, 'cap', 'cap must be from -148 to 212 °F'],
    ['a cap too large to be a finite number', { method: 'single-sine', cap: '9'.repeat(400) }, 'cap', 'cap must be from -100 to 100 °C'],
  ])('%s is refused, naming the parameter and its bounds in the scale', (_name, query, path, message) => {
    expect(faults(query)).toEqual([{ path, message: expect.stringContaining(message) }]);
  });

  it('a base out of range is the one fault: a cap is not also measured against it', () => {
    expect(faults({ base: '150', method: 'single-sine', cap: '30' })).toEqual([{ path: 'base', message: expect.any(String) }]);
  });
});
