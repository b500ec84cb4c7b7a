import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import {
  createGeography,
  decodeGeography,
  EARTH_GEOGRAPHY_SHARE,
  earthGeography,
  earthGeographyForThreads,
  GEOGRAPHY_FILE,
  geographyOver,
  shareGeography,
} from '../src/index.js';

/*
 * docs/decisions/0325-geography-decoded-once-per-process.md: a process decodes the committed
 * geography once and its threads read those layers through a SharedArrayBuffer.
 */

/** Runs a few lines in a new thread (tsx registered, as workerModule does) and returns what it posts. */
function inThread(body: string, workerData: Record<string, unknown>): Promise<Record<string, unknown>> {
  const geography = JSON.stringify(new URL('../src/index.ts', import.meta.url).href);
  const code = `import('tsx/esm/api').then(async ({ register }) => {
    register();
    const { parentPort, workerData } = await import('node:worker_threads');
    const geo = await import(${geography});
    ${body}
  });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData });
    worker.once('message', (message: Record<string, unknown>) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const PLACES: Array<[number, number]> = [
  [46.5, 8.0],
  [-33.9, 18.4],
  [64.1, -21.9],
  [0, -160],
];

describe('the decoded geography shared with threads', () => {
  it('decodes into a SharedArrayBuffer and reads the same values as the file decoded in place', () => {
    const decoded = decodeGeography(readFileSync(GEOGRAPHY_FILE));
    expect(decoded.cells.buffer).toBeInstanceOf(SharedArrayBuffer);
    const over = geographyOver(decoded);
    const fresh = createGeography(readFileSync(GEOGRAPHY_FILE));
    for (const [lat, lon] of PLACES) expect(over.sampleAt(lat, lon)).toEqual(fresh.sampleAt(lat, lon));
  });

  it('a thread handed the process layers reads them and decodes nothing of its own', async () => {
    const handed = earthGeographyForThreads();
    expect(handed[EARTH_GEOGRAPHY_SHARE]!.cells).toBe(earthGeography().decoded.cells);
    const reply = await inThread(
      `const earth = geo.earthGeography();
      parentPort.postMessage({
        handed: earth.decoded.cells.buffer === workerData[geo.EARTH_GEOGRAPHY_SHARE].cells.buffer,
        shared: earth.decoded.cells.buffer instanceof SharedArrayBuffer,
        samples: ${JSON.stringify(PLACES)}.map(([lat, lon]) => earth.sampleAt(lat, lon)),
      });`,
      handed,
    );
    expect(reply.handed).toBe(true);
    expect(reply.shared).toBe(true);
    expect(reply.samples).toEqual(PLACES.map(([lat, lon]) => earthGeography().sampleAt(lat, lon)));
  }, 60_000);

  it('a thread started without them decodes the file itself', async () => {
    const reply = await inThread(
      `parentPort.postMessage({ own: geo.earthGeography().decoded.cells.buffer instanceof SharedArrayBuffer });`,
      {},
    );
    expect(reply.own).toBe(true);
  }, 60_000);

  it('a thread started before the layers are decoded waits for them and reads them', async () => {
    const { handed, fill } = shareGeography(readFileSync(GEOGRAPHY_FILE));
    const reply = inThread(
      `const earth = geo.earthGeography();
      parentPort.postMessage({
        handed: earth.decoded.cells.buffer === workerData[geo.EARTH_GEOGRAPHY_SHARE].cells.buffer,
        samples: ${JSON.stringify(PLACES)}.map(([lat, lon]) => earth.sampleAt(lat, lon)),
      });`,
      { [EARTH_GEOGRAPHY_SHARE]: handed },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    fill();
    const { handed: same, samples } = await reply;
    expect(same).toBe(true);
    expect(samples).toEqual(PLACES.map(([lat, lon]) => earthGeography().sampleAt(lat, lon)));
  }, 60_000);

  it('refuses handed layers that are not on SharedArrayBuffers', async () => {
    // a structured clone copies an ordinary ArrayBuffer: each thread would hold 19 MB of its own
    const { handed } = shareGeography(readFileSync(GEOGRAPHY_FILE));
    const reply = await inThread(
      `try { geo.earthGeography(); parentPort.postMessage({ error: '' }); } catch (err) { parentPort.postMessage({ error: String(err.message) }); }`,
      { [EARTH_GEOGRAPHY_SHARE]: { ...handed, cells: new Int16Array(8) } },
    );
    expect(reply.error).toMatch('handed geography is not on SharedArrayBuffers');
  }, 60_000);
});
