/// <reference lib="dom" />
import L from 'leaflet';
import { ApiError, type Api } from './api.js';
import { PolygonDraw } from './draw.js';
import { faultPlace } from './fault-place.js';
import { type Field, type FieldChange, FieldRecords, polygonsOf } from './field-records.js';
import { FIT_ZOOM } from './map.js';
import { ShapeEdit, type PolygonRings } from './shape-edit.js';
import { errorText, showError, showMessage, showPanelErrors } from './status.js';
import { tooltipText } from './tooltip-text.js';

/**
 * The fields panel: the account's fields on the map and in a list; draw, rename, reshape, delete.
 * A refused geometry shows the problem's message at the failing ring (docs/interface.md §2).
 */
export class FieldsPanel {
  private readonly layer: L.FeatureGroup;
  private readonly draw: PolygonDraw;
  private readonly shape: ShapeEdit;
  /** the id of the field whose shape is being edited: its record may be saved meanwhile */
  private reshaping: string | null = null;
  private readonly fields: FieldRecords;
  private rejected: L.Layer[] = [];
  selected: Field | null = null;

  constructor(
    private readonly api: Api,
    private readonly map: L.Map,
    private readonly onSelect: (field: Field | null) => void,
    private readonly onSaved: (field: Field) => void,
  ) {
    this.fields = new FieldRecords((id, body) => this.api.json<Field>('agriculture', `/fields/${id}`, { method: 'PUT', body }));
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
    this.shape = new ShapeEdit(map, (editing) => {
      byId('shape-edit').hidden = !editing;
      drawButton.disabled = editing;
      if (!editing) this.reshaping = null;
    });
    byId('save-shape').addEventListener('click', () => void this.saveShape());
    byId('cancel-shape').addEventListener('click', () => {
      this.clearRejected();
      this.shape.stop();
    });
  }

  /** Whether a map click belongs to the draw tool rather than to the point panel. */
  get drawing(): boolean {
    return this.draw.drawing;
  }

  async load(): Promise<void> {
    try {
      this.fields.reset(await this.api.json<Field[]>('agriculture', '/fields'));
      this.render();
    } catch (err) {
      this.fields.reset([]);
      this.render();
      // not "No fields yet": the account may well have some
      const failed = Object.assign(document.createElement('li'), { className: 'failed', textContent: errorText(err) });
      byId('fields').replaceChildren(failed);
      showError(err);
    }
  }

  /** Sends the drawn polygon; on 422 draws it in red with each fault at its ring. */
  async create(rings: PolygonRings): Promise<void> {
    const input = byId<HTMLInputElement>('field-description');
    const body = { description: input.value, type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: rings }] };
    try {
      const field = await this.api.json<Field>('agriculture', '/fields', { method: 'POST', body });
      // The box names the next field drawn: left filled, every field would take this one's name.
      // A refused shape keeps it, to be drawn again under it, as does a name typed meanwhile.
      if (input.value === body.description) input.value = '';
      this.fields.put(field);
      showMessage(`Field ${field.description || field.id} created`, 'info');
      this.render();
      this.select(field);
    } catch (err) {
      this.showRejected([rings], err);
    }
  }

  /** Puts the field's polygons under the shape editor's handles. */
  editShape(field: Field): void {
    this.draw.cancel();
    this.clearRejected();
    if (this.selected?.id !== field.id) this.select(field);
    this.shape.start(polygonsOf(this.fields.get(field.id) ?? field));
    this.reshaping = field.id;
  }

  /**
   * Replaces the field's geometry with the edited one (PUT, docs/interface.md §2); on 422 the
   * editor stays open and each fault shows at its ring, as on creation.
   */
  async saveShape(): Promise<void> {
    const id = this.reshaping;
    if (!id) return;
    const polygons = this.shape.result();
    try {
      const updated = await this.replace(id, { polygons });
      this.clearRejected();
      this.shape.stop();
      this.select(updated);
      showMessage(`Shape of ${updated.description || updated.id} saved`, 'info');
    } catch (err) {
      this.showRejected(polygons, err);
    }
  }

  async remove(field: Field): Promise<void> {
    if (!confirm(`Delete field ${field.description || field.id}?`)) return;
    try {
      await this.api.json<Field>('agriculture', `/fields/${field.id}`, { method: 'DELETE' });
      this.fields.remove(field.id);
      if (this.reshaping === field.id) this.shape.stop();
      if (this.selected?.id === field.id) this.select(null);
      this.render();
    } catch (err) {
      showError(err);
    }
  }

  async rename(field: Field): Promise<void> {
    const description = prompt('Description', this.fields.get(field.id)?.description ?? field.description);
    if (description === null) return;
    try {
      const updated = await this.replace(field.id, { description });
      if (this.selected?.id === field.id) this.select(updated);
    } catch (err) {
      showError(err);
    }
  }

  /** Saves the change on the field as known when it is sent (FieldRecords.save). */
  private async replace(id: string, change: FieldChange): Promise<Field> {
    const updated = await this.fields.save(id, change);
    this.render();
    this.onSaved(updated);
    return updated;
  }

  select(field: Field | null): void {
    this.selected = field;
    for (const li of Array.from(byId('fields').querySelectorAll('li'))) li.classList.toggle('selected', li.dataset.id === field?.id);
    if (field) this.map.fitBounds(this.outline(field).getBounds(), { maxZoom: FIT_ZOOM });
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
    for (const field of this.fields.all) {
      const outline = this.outline(field).on('click', (e) => {
        if (this.draw.drawing || this.shape.editing) return;
        L.DomEvent.stop(e);
        this.select(field);
      });
      outline.bindTooltip(tooltipText(field.description || field.id));
      this.layer.addLayer(outline);
      const li = document.createElement('li');
      li.dataset.id = field.id;
      li.classList.toggle('selected', this.selected?.id === field.id);
      // Each name begins with the words the button shows, so a voice command of what is seen finds
      // it (WCAG 2.2, 2.5.3 Label in Name), then names the field it acts on.
      const name = field.description || field.id;
      li.append(
        button(field.description || `Field ${field.id.slice(0, 8)}`, () => this.select(field)),
        ' ',
        button('Rename', () => void this.rename(field), `Rename ${name}`),
        ' ',
        button('Shape', () => this.editShape(field), `Shape of ${name}: edit it`),
        ' ',
        button('Delete', () => void this.remove(field), `Delete ${name}`),
      );
      list.append(li);
    }
    if (this.fields.all.length === 0) list.append(Object.assign(document.createElement('li'), { textContent: 'No fields yet.' }));
  }

  private showRejected(polygons: PolygonRings[], err: unknown): void {
    this.clearRejected();
    const polygon = L.polygon(
      polygons.map((rings) => rings.map((r) => r.map(([lon, lat]) => [lat, lon] as [number, number]))),
      { color: '#b3261e', dashArray: '4 3', interactive: false },
    ).addTo(this.map);
    this.rejected.push(polygon);
    const faults = err instanceof ApiError ? err.faults : [];
    let placed = 0;
    for (const fault of faults) {
      const place = faultPlace(fault, polygons);
      if (!place) continue;
      const [lon, lat] = place;
      const tip = L.tooltip({ permanent: true, className: 'ring-error', direction: 'top' })
        .setLatLng([lat, lon])
        .setContent(tooltipText(fault.message));
      tip.addTo(this.map);
      this.rejected.push(tip);
      placed += 1;
    }
    if (placed === 0) {
      polygon.bindTooltip(tooltipText(errorText(err)), { permanent: true, className: 'ring-error' }).openTooltip();
    }
    // The message is the red shape's: it goes with it (clearRejected), not left to say a shape
    // drawn since, or a field created since, was refused.
    showPanelErrors(REJECTED_SHAPE, [err]);
  }

  private clearRejected(): void {
    for (const l of this.rejected) l.remove();
    this.rejected = [];
    showPanelErrors(REJECTED_SHAPE, []);
  }
}

/** The name under which the refused shape's message is shown (showPanelErrors). */
const REJECTED_SHAPE = 'rejected-shape';

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
