/// <reference lib="dom" />
import L from 'leaflet';
import { OPENING_VIEW } from '../opening-view.js';
import type { Api } from './api.js';
import { byId } from './fields.js';
import { MAX_ZOOM } from './map.js';
import { drawLegend } from './legend.js';
import { PanelView } from './panel-view.js';
import { showError } from './status.js';
import { type StyleableLayer, type StyleColors, styleLegend } from './style-legend.js';

interface Product {
  id: string;
  name: string;
  frames: string | null;
  /** the layers a style colours, with their units */
  styleableLayers?: StyleableLayer[];
}

interface Frame {
  id: string;
  validTime: string;
  expirationTime: string | null;
  zoomLevels?: number[] | { min?: number; max?: number } | null;
}

interface Style extends StyleColors {
  id: string;
  name: string;
  isDefault: boolean;
}

/**
 * A tile layer that fetches each tile with the account's credentials (an <img> cannot send HTTP
 * Basic) and shows it from a blob URL (docs/interface.md §4). A tile taken off the map (panned or
 * zoomed away, another frame, style or product) has its request aborted: the browser opens only
 * a few connections to one area, and requests for tiles nobody sees would hold them while the
 * panel's own calls (styles, frames) wait behind.
 */
class AuthorizedTiles extends L.GridLayer {
  private readonly requests = new WeakMap<HTMLElement, AbortController>();

  constructor(
    private readonly api: Api,
    private readonly path: (coords: L.Coords) => string,
    options: L.GridLayerOptions,
  ) {
    super(options);
    this.on('tileunload', (e: L.TileEvent) => this.requests.get(e.tile)?.abort());
  }

  protected override createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const img = document.createElement('img');
    img.alt = '';
    img.setAttribute('role', 'presentation');
    const request = new AbortController();
    this.requests.set(img, request);
    this.api
      .blob('tiles', this.path(coords), request.signal)
      .then((blob) => {
        const url = URL.createObjectURL(blob);
        img.onload = () => {
          URL.revokeObjectURL(url);
          done(undefined, img);
        };
        img.src = url;
      })
      .catch((err: unknown) => {
        // an aborted tile is off the map already: not an error to show
        if (request.signal.aborted) return;
        done(err instanceof Error ? err : new Error(String(err)), img);
      })
      .finally(() => this.requests.delete(img));
    return img;
  }
}

/** The weather layer panel: product, style (defaults and the account's), a time slider over frames, a legend. */
export class TilesPanel {
  private layer: AuthorizedTiles | null = null;
  private frames: Frame[] = [];
  private styles: Style[] = [];
  private products: Product[] = [];
  private tileErrorShown = false;
  /** the styles and frames shown, keyed by their product's name */
  private readonly view = new PanelView<{ styles: Style[]; frames: Frame[] }>();

  constructor(
    private readonly api: Api,
    private readonly map: L.Map,
  ) {
    map.createPane('weather').style.zIndex = '300';
    byId('product').addEventListener('change', () => void this.loadProduct());
    byId('style').addEventListener('change', () => this.show());
    byId('frame').addEventListener('input', () => this.show());
  }

  async load(): Promise<void> {
    const select = byId<HTMLSelectElement>('product');
    try {
      const products = (await this.api.json<Product[]>('platform', '/products')).filter((p) => p.frames);
      this.products = products;
      select.replaceChildren(...products.map((p) => new Option(p.name, p.name)));
      const preferred = products.find((p) => p.name === OPENING_VIEW.product) ?? products[0];
      if (!preferred) throw new Error('No product with frames is available to this account');
      select.value = preferred.name;
      await this.loadProduct();
    } catch (err) {
      showError(err);
    }
  }

  private async loadProduct(): Promise<void> {
    const selected = byId<HTMLSelectElement>('product').value;
    const product = encodeURIComponent(selected);
    // The last product's tiles go now, their requests with them, so this product's styles and
    // frames do not wait behind them for the browser's few connections to the area.
    this.layer?.remove();
    this.layer = null;
    let shown;
    try {
      const [styles, frames] = await Promise.all([
        this.api.json<Style[]>('tiles', `/v2/products/${product}/styles.json`),
        this.api.json<Frame[]>('tiles', `/v2/products/${product}/frames.json?limit=1000`),
      ]);
      shown = this.view.answered(selected, { styles, frames });
    } catch (err) {
      shown = this.view.failed(selected, err);
      showError(err);
    }
    // A product chosen since may have answered first: only the one selected now is shown.
    if (byId<HTMLSelectElement>('product').value !== selected) return;
    const { styles, frames } = shown.answer ?? { styles: [], frames: [] };
    this.styles = styles;
    // The last two days and the next one, oldest to newest so the slider runs forward in time;
    // the newest frame of the past is shown first.
    const now = Date.now();
    const byTime = [...frames].sort((a, b) => a.validTime.localeCompare(b.validTime));
    const past = byTime.filter((f) => Date.parse(f.validTime) <= now).slice(-48);
    const future = byTime.filter((f) => Date.parse(f.validTime) > now).slice(0, 24);
    this.frames = [...past, ...future];
    const styleSelect = byId<HTMLSelectElement>('style');
    styleSelect.replaceChildren(...styles.map((s) => new Option(`${s.name}${s.isDefault ? ' (default)' : ''}`, s.id)));
    const slider = byId<HTMLInputElement>('frame');
    slider.max = String(Math.max(0, this.frames.length - 1));
    slider.value = String(Math.max(0, past.length - 1));
    this.show();
    if (shown.error !== null && !shown.answer) byId('frame-time').textContent = shown.error;
  }

  private show(): void {
    const frame = this.frames[Number(byId<HTMLInputElement>('frame').value)];
    const style = this.styles.find((s) => s.id === byId<HTMLSelectElement>('style').value);
    const time = frame ? new Date(frame.validTime).toUTCString() : 'no frames';
    byId('frame-time').textContent = time;
    // Read out as the frame's time, not its position among the frames (WAI-ARIA 1.2, aria-valuetext).
    byId('frame').setAttribute('aria-valuetext', time);
    this.layer?.remove();
    this.layer = null;
    const layers = this.products.find((p) => p.name === byId<HTMLSelectElement>('product').value)?.styleableLayers ?? [];
    byId('legend').replaceChildren(
      ...(style ? styleLegend(style, layers) : []).map(({ title, entries }) => {
        const line = document.createElement('div');
        line.className = 'legend';
        drawLegend(line, entries, title);
        return line;
      }),
    );
    if (!frame) return;
    const query = style ? `?style=${encodeURIComponent(style.id)}` : '';
    this.tileErrorShown = false;
    this.layer = new AuthorizedTiles(this.api, (c) => `/v2/frames/${frame.id}/tile/${c.z}/${c.x}/${c.y}.png${query}`, {
      pane: 'weather',
      opacity: 0.7,
      maxNativeZoom: 7,
      maxZoom: MAX_ZOOM,
    });
    this.layer.on('tileerror', (e: L.TileErrorEvent) => {
      if (this.tileErrorShown) return;
      this.tileErrorShown = true;
      showError((e as unknown as { error?: Error }).error ?? new Error('A tile could not be loaded'));
    });
    this.layer.addTo(this.map);
  }
}
