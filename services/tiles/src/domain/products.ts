/**
 * The products the tiles area draws and lists: the catalog's, then the synced sources'
 * (docs/decisions/0315-synced-sources-as-products.md) as their registries describe them now.
 */
import type { Catalog, ProductDef, SyncedFrame, SyncedProducts } from '@fieldcast/weather';
import type { DefaultStyles } from './styles.js';
import type { FrameRef } from './frames.js';

export class TileProducts {
  constructor(
    private readonly catalog: Catalog,
    private readonly defaults: DefaultStyles,
    /** null when the weather serves no synced stores */
    readonly synced: SyncedProducts | null,
    /** the area's clock: a synced run past its expirationTime is not drawn (docs/decisions/0363) */
    private readonly now: () => Date,
  ) {}

  /** A product by id or name; a synced one has its default styles derived as it is first named. */
  async product(ref: string): Promise<ProductDef | undefined> {
    const p = this.catalog.product(ref);
    if (p || !this.synced) return p;
    await this.synced.refresh(this.now().getTime());
    const synced = this.synced.product(ref)?.def;
    if (synced) this.defaults.of(synced);
    return synced;
  }

  /** A synced product's frame by id, with the store it is read from. */
  async syncedFrame(id: string): Promise<SyncedFrame | undefined> {
    const frame = await this.synced?.find(id, this.now().getTime());
    if (frame) this.defaults.of(frame.product);
    return frame;
  }

  /** A synced product's newest frames first, at most `limit`; undefined for a catalog product. */
  async syncedFrames(ref: string, limit: number): Promise<FrameRef[] | undefined> {
    if (!this.synced || this.catalog.product(ref)) return undefined;
    await this.synced.refresh(this.now().getTime());
    const p = this.synced.product(ref);
    return p ? this.synced.frames(p, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, limit, 'desc') : undefined;
  }
}
