import { LatestRequest } from '../src/browser/latest.js';

/** A promise resolved from outside, so a test decides the order answers arrive in. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

// Two clicks (or two settings) in quick succession: the answers may arrive in either order, and
// only the later request's may be shown.
describe('the latest request wins', () => {
  it('aborts the request before when another starts', () => {
    const latest = new LatestRequest();
    const first = latest.start();
    expect(first.aborted).toBe(false);
    const second = latest.start();
    expect(first.aborted).toBe(true);
    expect(second.aborted).toBe(false);
  });

  it('drops the earlier answer that arrives last', async () => {
    const latest = new LatestRequest();
    const shown: string[] = [];
    const ask = async (answer: Promise<string>) => {
      const signal = latest.start();
      const text = await answer;
      if (!signal.aborted) shown.push(text);
    };
    const a = deferred<string>();
    const b = deferred<string>();
    const asked = [ask(a.promise), ask(b.promise)];
    b.resolve('B');
    await asked[1];
    a.resolve('A');
    await Promise.all(asked);
    expect(shown).toEqual(['B']);
  });

  it('keeps apart the requests of different things', () => {
    const point = new LatestRequest();
    const field = new LatestRequest();
    const clicked = point.start();
    field.start();
    expect(clicked.aborted).toBe(false);
  });
});
