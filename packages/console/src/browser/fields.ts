/// <reference lib="dom" />
import L from 'leaflet';
import { ApiError, type Api } from './api.js';
import { PolygonDraw } from './draw.js';
import { showError, showMessage } from './status.js';

/** A field as the agriculture area returns it (docs/interface.md §2). */
export interface Field {
  id: string;
  description: string;
  type: 'GeometryCollection';
  geometries: { type: 'MultiPolygon'; coordinates: number[][][][] }[];
  centroid: { latitude: number; longitude: number };
}

type Ring = [number, number][];

/**
 * The fields panel: the account's fields on the map and in a list; draw, rename, delete. A
 * refused geometry shows the problem's message at the failing ring (docs/interface.md §2).
 */
export class FieldsPanel {
  private readonly layer: L.FeatureGroup;
  private readonly draw: PolygonDraw;
  private fields: Field[] = [];
  private rejected: L.Layer[] = [];
  selected: Field | null = null;

  constructor(
    private readonly api: Api,
    private readonly map: L.Map,
    private readonly onSelect: (field: Field | null) => void,
  ) {
    this.layer = L.featureGroup().addTo(map);
    const drawButton = byId<HTMLButtonElement>('draw');
    const finish = byId<HTMLButtonElement>('finish');
    const cancel = byId<HTMLButtonElement>('cancel');
    this.draw = new PolygonDraw(
      map,
      (ring) => void this.create([ring]),
      (drawing, vertices) => {
        drawButton.hidden = drawing;
        cancel.hidden = !drawing;
        finish.hidden = !drawing;
        finish.disabled = vertices < 3;
        if (drawing) this.clearRejected();
      },
    );
    drawButton.addEventListener('click', () => {
      this.draw.start();
      map.getContainer().focus();
    });
    finish.addEventListener('click', () => this.draw.finish());
    cancel.addEventListener('click', () => this.draw.cancel());
  }

  /** Whether a map click belongs to the draw tool rather than to the point panel. */
  get drawing(): boolean {
    return this.draw.drawing;
  }

  async load(): Promise<void> {
    try {
      this.fields = await this.api.json<Field[]>('agriculture', '/fields');
    } catch (err) {
      this.fields = [];
      showError(err);
    }
    this.render();
  }

  /** Sends the drawn polygon; on 422 draws it in red with each fault at its ring. */
  async create(rings: Ring[]): Promise<void> {
    const description = byId<HTMLInputElement>('field-description').value;
    const body = { description, type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: rings }] };
    try {
      const field = await this.api.json<Field>('agriculture', '/fields', { method: 'POST', body });
      this.fields.push(field);
      showMessage(`Field ${field.description || field.id} created`, 'info');
      this.render();
      this.select(field);
    } catch (err) {
      this.showRejected(rings, err);
    }
  }

  async remove(field: Field): Promise<void> {
    if (!confirm(`Delete field ${field.description || field.id}?`)) return;
    try {
      await this.api.json<Field>('agriculture', `/fields/${field.id}`, { method: 'DELETE' });
      this.fields = this.fields.filter((f) => f.id !== field.id);
      if (this.selected?.id === field.id) this.select(null);
      this.render();
    } catch (err) {
      showError(err);
    }
  }

  async rename(field: Field): Promise<void> {
    const description = prompt('Description', field.description);
    if (description === null) return;
    const polygons = field.geometries.flatMap((g) => g.coordinates.map((coordinates) => ({ type: 'Polygon', coordinates })));
    try {
      const updated = await this.api.json<Field>('agriculture', `/fields/${field.id}`, {
        method: 'PUT',
        body: { description, type: 'GeometryCollection', geometries: polygons },
      });
      this.fields = this.fields.map((f) => (f.id === field.id ? updated : f));
      this.render();
      if (this.selected?.id === field.id) this.select(updated);
    } catch (err) {
      showError(err);
    }
  }

  select(field: Field | null): void {
    this.selected = field;
    for (const li of Array.from(byId('fields').querySelectorAll('li'))) li.classList.toggle('selected', li.dataset.id === field?.id);
    if (field) this.map.fitBounds(this.outline(field).getBounds(), { maxZoom: 12 });
    this.onSelect(field);
  }

  private outline(field: Field): L.GeoJSON {
    return L.geoJSON({ type: 'GeometryCollection', geometries: field.geometries } as GeoJSON.GeometryCollection, {
      style: { color: '#1f6f3f', weight: 2, fillOpacity: 0.1 },
    });
  }

  private render(): void {
    this.layer.clearLayers();
    const list = byId('fields');
    list.replaceChildren();
    for (const field of this.fields) {
      const outline = this.outline(field).on('click', (e) => {
        if (this.draw.drawing) return;
        L.DomEvent.stop(e);
        this.select(field);
      });
      outline.bindTooltip(field.description || field.id);
      this.layer.addLayer(outline);
      const li = document.createElement('li');
      li.dataset.id = field.id;
      li.classList.toggle('selected', this.selected?.id === field.id);
      li.append(
        button(field.description || `Field ${field.id.slice(0, 8)}`, () => this.select(field)),
        ' ',
        button('Edit', () => void this.rename(field), `Edit the description of ${field.description || field.id}`),
        ' ',
        button('Delete', () => void this.remove(field), `Delete ${field.description || field.id}`),
      );
      list.append(li);
    }
    if (this.fields.length === 0) list.append(Object.assign(document.createElement('li'), { textContent: 'No fields yet.' }));
  }

  private showRejected(rings: Ring[], err: unknown): void {
    this.clearRejected();
    const polygon = L.polygon(
      rings.map((r) => r.map(([lon, lat]) => [lat, lon] as [number, number])),
      { color: '#b3261e', dashArray: '4 3' },
    ).addTo(this.map);
    this.rejected.push(polygon);
    const faults = err instanceof ApiError ? err.faults : [];
    let placed = 0;
    for (const fault of faults) {
      // Paths are dotted (docs/interface.md §1): geometries.<polygon>.coordinates.<ring>[.<position>].
      const m = /^geometries\.0\.coordinates\.(\d+)(?:\.(\d+))?/.exec(fault.path);
      const ring = m ? rings[Number(m[1])] : undefined;
      if (!ring) continue;
      const [lon, lat] = ring[m && m[2] ? Math.min(Number(m[2]), ring.length - 1) : 0]!;
      const tip = L.tooltip({ permanent: true, className: 'ring-error', direction: 'top' }).setLatLng([lat, lon]).setContent(fault.message);
      tip.addTo(this.map);
      this.rejected.push(tip);
      placed += 1;
    }
    if (placed === 0) {
      polygon.bindTooltip(err instanceof Error ? err.message : String(err), { permanent: true, className: 'ring-error' }).openTooltip();
    }
    showError(err);
  }

  private clearRejected(): void {
    for (const l of this.rejected) l.remove();
    this.rejected = [];
  }
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page lacks #${id}`);
  return element as T;
}

export function button(text: string, onClick: () => void, label?: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (label) b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}
