/// <reference lib="dom" />
import L from 'leaflet';
import { type Api, changedMeanwhile } from './api.js';
import { assetLabel } from './asset-label.js';
import { type Asset, type AssetChange, assetReplacement, parseTags, tagsText } from './asset-tags.js';
import { FIT_ZOOM } from './map.js';
import { button, byId } from './fields.js';
import { ShapeEdit } from './shape-edit.js';
import { errorText, showError, showMessage } from './status.js';
import { tooltipText } from './tooltip-text.js';

/** The version of an asset an edit was opened on: saved only if nobody changed it since. */
interface Opened {
  asset: Asset;
  etag: string | null;
}

/**
 * The assets panel: the account's insight assets (docs/interface.md §5), drawn in blue beside the
 * fields and listed; their tags and shape edited. An edit starts from the asset read with its
 * ETag and is saved with it in If-Match (docs/interface.md §1, Concurrent changes): an asset
 * someone else changed since is not overwritten; the panel says so and shows it as it is now.
 */
export class AssetsPanel {
  private readonly layer: L.FeatureGroup;
  private readonly shape: ShapeEdit;
  /** the asset whose shape is under the editor's handles */
  private reshaping: Opened | null = null;

  constructor(
    private readonly api: Api,
    private readonly map: L.Map,
  ) {
    this.layer = L.featureGroup().addTo(map);
    this.shape = new ShapeEdit(map, (editing) => {
      byId('asset-shape-edit').hidden = !editing;
      if (!editing) this.reshaping = null;
    });
    byId('save-asset-shape').addEventListener('click', () => void this.saveShape());
    byId('cancel-asset-shape').addEventListener('click', () => this.shape.stop());
  }

  async load(): Promise<void> {
    const list = byId('assets');
    try {
      this.render(await this.api.json<Asset[]>('insight', '/assets'));
    } catch (err) {
      this.layer.clearLayers();
      // not "No assets": the account may well have some
      list.replaceChildren(Object.assign(document.createElement('li'), { className: 'failed', textContent: errorText(err) }));
      showError(err);
    }
  }

  private outline(asset: Asset): L.GeoJSON {
    return L.geoJSON({ type: 'GeometryCollection', geometries: asset.geometries } as GeoJSON.GeometryCollection, {
      style: { color: '#1d4ed8', weight: 2, fillOpacity: 0.08, dashArray: '6 3' },
    });
  }

  private render(assets: Asset[]): void {
    this.layer.clearLayers();
    const list = byId('assets');
    list.replaceChildren();
    for (const asset of assets) {
      const label = assetLabel(asset);
      const outline = this.outline(asset).bindTooltip(tooltipText(label));
      this.layer.addLayer(outline);
      const li = document.createElement('li');
      li.dataset.id = asset.id;
      // Each name begins with the words the button shows (WCAG 2.2, 2.5.3 Label in Name), then
      // names the asset it acts on.
      li.append(
        button(label, () => this.map.fitBounds(outline.getBounds(), { maxZoom: FIT_ZOOM })),
        ' ',
        button('Tags', () => void this.editTags(asset.id, li), `Tags of ${label}: edit them`),
        ' ',
        button('Shape', () => void this.editShape(asset.id), `Shape of ${label}: edit it`),
      );
      list.append(li);
    }
    if (assets.length === 0) list.append(Object.assign(document.createElement('li'), { textContent: 'No assets yet.' }));
  }

  /** The asset as it is now, with the ETag its edit is saved under. */
  private async open(id: string): Promise<Opened> {
    const { body: asset, etag } = await this.api.versioned<Asset>('insight', `/assets/${id}`);
    return { asset, etag };
  }

  /** Opens the asset's tags in a box under its name, a `name: value` a line. */
  private async editTags(id: string, li: HTMLLIElement): Promise<void> {
    let opened: Opened;
    try {
      opened = await this.open(id);
    } catch (err) {
      showError(err);
      return;
    }
    li.querySelector('form')?.remove();
    const form = document.createElement('form');
    form.className = 'asset-tags';
    const box = Object.assign(document.createElement('textarea'), { value: tagsText(opened.asset.description), rows: 4 });
    const label = document.createElement('label');
    label.append('Tags, one name: value a line', box);
    const save = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Save tags' });
    const row = document.createElement('div');
    row.className = 'row';
    row.append(
      save,
      button('Cancel', () => form.remove()),
    );
    form.append(label, row);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const parsed = parseTags(box.value);
      if ('fault' in parsed) showMessage(parsed.fault);
      else void this.save(opened, { tags: parsed.tags });
    });
    li.append(form);
    box.focus();
  }

  /** Puts the asset's polygon under the shape editor's handles. */
  private async editShape(id: string): Promise<void> {
    try {
      const opened = await this.open(id);
      const polygon = assetReplacement(opened.asset, {}).features[0].geometry.coordinates;
      this.shape.start([polygon]);
      this.reshaping = opened;
    } catch (err) {
      showError(err);
    }
  }

  private async saveShape(): Promise<void> {
    const opened = this.reshaping;
    const [polygon] = this.shape.result();
    if (!opened || !polygon) return;
    if (await this.save(opened, { polygon })) this.shape.stop();
  }

  /**
   * Replaces the asset with the change made on the version opened (PUT with If-Match); on a 412
   * says that someone else changed it and shows the assets as they are now. Answers whether it
   * was saved.
   */
  private async save(opened: Opened, change: AssetChange): Promise<boolean> {
    const label = assetLabel(opened.asset);
    try {
      const saved = await this.api.json<Asset>('insight', `/assets/${opened.asset.id}`, {
        method: 'PUT',
        body: assetReplacement(opened.asset, change),
        ifMatch: opened.etag ?? undefined,
      });
      showMessage(`${assetLabel(saved)} saved`, 'info');
    } catch (err) {
      if (!changedMeanwhile(err)) {
        showError(err);
        return false;
      }
      showMessage(`Someone else changed ${label} since you opened it: your change was not saved. It is shown as it is now.`);
      this.shape.stop();
    }
    await this.load();
    return true;
  }
}
