import { ReloadingSource, SyntheticSource, storesOf } from '../src/index.js';

/*
 * The weather served while synced stores change (docs/decisions/0251-synced-stores-registry.md):
 * made again only when the stamp changes, the stores no longer served handed over to be closed,
 * and a failed reload leaves the source before in place.
 */
describe('ReloadingSource', () => {
  const first = new SyntheticSource();
  const second = new SyntheticSource();

  it('serves the new source once the stamp changes, and keeps the old one when a reload fails', async () => {
    let stamp = 'a';
    let next: SyntheticSource | Error = first;
    const errors: unknown[] = [];
    const dropped: Array<[unknown, unknown]> = [];
    const source = await ReloadingSource.open({
      stamp: async () => stamp,
      load: async () => {
        if (next instanceof Error) throw next;
        return next;
      },
      dropped: (previous, current) => (dropped.push([previous, current]), []),
      onError: (error) => errors.push(error),
    });
    expect(source.source).toBe(first);
    next = second;
    expect(await source.reload()).toBe(false);
    expect(source.source).toBe(first);

    stamp = 'b';
    expect(await source.reload()).toBe(true);
    expect(source.source).toBe(second);
    expect(dropped).toEqual([[first, second]]);

    stamp = 'c';
    next = new Error('cannot open');
    expect(await source.reload()).toBe(false);
    expect(source.source).toBe(second);
    expect(errors).toEqual([next]);
    // Compute threads open what the source serves now.
    expect(storesOf(source)).toEqual({ locations: [], synthetic: true });
    const range = { startMs: Date.UTC(2024, 0, 1), endMs: Date.UTC(2024, 0, 1, 3) };
    expect((await source.pointSeries('air_temperature', 10, 45, range)).values).toEqual(
      (await second.pointSeries('air_temperature', 10, 45, range)).values,
    );
    await source.close();
  });
});
