import { inParts, MIN_BATCH_PART } from '../src/workers/index.js';

/** The parts inParts hands `run`, and its answer, for a batch of `n` numbered entries and `idle` threads. */
async function split(n: number, idle: number): Promise<{ parts: number[][]; out: string[] }> {
  const entries = Array.from({ length: n }, (_, i) => i);
  const parts: number[][] = [];
  const out = await inParts(entries, idle, async (part) => {
    parts.push(part);
    // later parts answer first: the join must still follow the entries' order
    await new Promise((resolve) => setTimeout(resolve, 50 - parts.length * 10));
    return part.map((i) => `r${i}`);
  });
  return { parts, out };
}

describe('inParts', () => {
  it('gives each idle thread a contiguous part and joins the results in the order of the entries', async () => {
    const { parts, out } = await split(1000, 3);
    expect(parts.map((p) => p.length)).toEqual([333, 333, 334]);
    expect(parts.flat()).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(out).toEqual(Array.from({ length: 1000 }, (_, i) => `r${i}`));
  });

  it(`keeps at least ${MIN_BATCH_PART} entries a part, and runs one part without an idle thread`, async () => {
    expect((await split(2 * MIN_BATCH_PART - 1, 4)).parts.map((p) => p.length)).toEqual([2 * MIN_BATCH_PART - 1]);
    expect((await split(2 * MIN_BATCH_PART, 4)).parts.map((p) => p.length)).toEqual([MIN_BATCH_PART, MIN_BATCH_PART]);
    expect((await split(1000, 0)).parts.map((p) => p.length)).toEqual([1000]);
    expect((await split(3, 8)).parts).toEqual([[0, 1, 2]]);
  });
});
