import { forecastBoundaryMs, type GridSource, SyntheticSource } from '@fieldcast/weather';
import { sampleLayer } from '../src/domain/layers.js';
import { tileSampler } from '../src/sample-compute.js';
import { FunctionSource } from './function-source.js';

/* Tiles sampled in a compute thread are those sampled inline. */
const source = new SyntheticSource();
const HOUR = 3_600_000;
const validMs = forecastBoundaryMs(Date.now()) - 3 * HOUR;
// Every zoom below 8 goes to the thread (the synthetic world's native zoom is 7).
const sampler = tileSampler(source, 1, 8);
afterAll(() => sampler.close());

describe('tiles sampled in compute threads', () => {
  it('a hand-made source, which no thread can open again, is sampled inline', async () => {
    const handMade: GridSource = new FunctionSource({ air_temperature: (lon) => lon });
    const inline = tileSampler(handMade, 1, 8);
    const values = await inline.sample({ variable: 'air_temperature' }, validMs, { z: 1, x: 1, y: 0 }, 'linear');
    expect(values[100]).toBeCloseTo(((100.5 * 180) / 256) * 1, 3);
    await inline.close();
  });

  it('a low-zoom tile read point by point, and an evapotranspiration tile, equal their inline samples', async () => {
    const temperature = { z: 1, x: 1, y: 0 };
    const et = { z: 6, x: 15, y: 23 };
    const [threaded, threadedEt] = await Promise.all([
      sampler.sample({ variable: 'air_temperature' }, validMs, temperature, 'linear'),
      sampler.sample({ evapotranspiration: true }, validMs, et, 'linear'),
    ]);
    expect(threaded).toEqual(await sampleLayer(source, { variable: 'air_temperature' }, validMs, temperature, 'linear'));
    expect(threadedEt).toEqual(await sampleLayer(source, { evapotranspiration: true }, validMs, et, 'linear'));
    expect(threaded).toHaveLength(256 * 256);
    expect(new Set(threadedEt).size).toBeGreaterThan(100);
    // the thread's first start transpiles its modules from the sources: seconds on a loaded machine
  }, 300_000);
});
