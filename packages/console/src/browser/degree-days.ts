/// <reference lib="dom" />
import L from 'leaflet';
import type { Api } from './api.js';
import { CHILL_MODEL_CHOICES, type Choice, CUTOFF_CHOICES, METHOD_CHOICES, SCALE_CHOICES } from './choices.js';
import type { Field } from './field-records.js';
import { byId } from './fields.js';
import { LatestRequest } from './latest.js';
import { bandColors, drawLegend } from './legend.js';
import { type Place, placePath } from './place.js';
import { convertThreshold, type Scale, scaleSymbol } from './scale.js';
import { errorText, showPanelErrors } from './status.js';

interface FieldDegreeDays {
  startDate: string;
  endDate: string;
  baseTemperature: number;
  scale: string;
  degreeDays: number;
  fieldMean: number;
  fieldMaximum: number;
  fieldMinimum: number;
  contours: string;
}

interface Contours extends GeoJSON.FeatureCollection<GeoJSON.Polygon, { degreeDays: number }> {
  field: string;
}

export interface PointDegreeDays {
  latitude: number;
  longitude: number;
  startDate: string;
  endDate: string;
  baseTemperature: number;
  scale: string;
  degreeDays: number;
  /** each day's value and the total so far (include=daily) */
  daily: { date: string; degreeDays: number; accumulated: number }[];
}

export interface PointChill {
  startDate: string;
  endDate: string;
  model: string;
  units: string;
  chill: number;
  /** each day's chill and the total so far (include=daily) */
  daily: { date: string; chill: number; accumulated: number }[];
}

/** The panel's settings: a change to any of them asks again for what is shown in them. */
const SETTINGS = ['gdd-start', 'gdd-end', 'gdd-scale', 'gdd-base', 'gdd-method', 'gdd-cap', 'gdd-cutoff'];

/**
 * The degree-days panel: a field's value, mean, minimum, maximum and contours (docs/interface.md
 * §3), and the settings the point panel asks in too.
 */
export class DegreeDaysPanel {
  private contours: L.GeoJSON | null = null;
  private field: Field | null = null;
  private readonly fieldRequest = new LatestRequest();
  /** the scale the base and upper threshold are typed in */
  private scale: Scale = 'celsius';

  constructor(
    private readonly api: Api,
    private readonly map: L.Map,
  ) {
    offer('gdd-scale', SCALE_CHOICES);
    offer('gdd-method', METHOD_CHOICES);
    offer('gdd-cutoff', CUTOFF_CHOICES);
    offer('chill-model', CHILL_MODEL_CHOICES);
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 30));
    byId<HTMLInputElement>('gdd-start').value = start.toISOString().slice(0, 10);
    byId<HTMLInputElement>('gdd-end').value = today.toISOString().slice(0, 10);
    // Before any other listener: they ask in the thresholds converted.
    byId('gdd-scale').addEventListener('change', () => this.changeScale());
    this.onChange(() => void this.showField(this.field));
  }

  /** Calls `listener` whenever a setting changes. */
  onChange(listener: () => void): void {
    for (const id of SETTINGS) byId(id).addEventListener('change', listener);
  }

  /** The base and upper threshold stay the same temperatures in the scale chosen, labelled with its symbol. */
  private changeScale(): void {
    const scale = byId<HTMLSelectElement>('gdd-scale').value as Scale;
    for (const id of ['gdd-base', 'gdd-cap']) {
      const input = byId<HTMLInputElement>(id);
      input.value = convertThreshold(input.value, this.scale, scale);
    }
    document.querySelectorAll('#gdd-panel .gdd-unit').forEach((label) => (label.textContent = scaleSymbol(scale)));
    this.scale = scale;
  }

  /**
   * The panel's query: dates, scale, base, method, and the upper threshold with its cutoff when
   * given (docs/interface.md §3; every UC IPM method and cutoff, decision 0240); no base is the
   * area's default for the scale. A combination the area refuses (a cutoff without an upper
   * threshold, an upper threshold on the average method) shows the area's own message.
   */
  private query(extra: Record<string, string> = {}): string {
    const q = new URLSearchParams({
      start: byId<HTMLInputElement>('gdd-start').value,
      end: byId<HTMLInputElement>('gdd-end').value,
      scale: byId<HTMLSelectElement>('gdd-scale').value,
      method: byId<HTMLSelectElement>('gdd-method').value,
      ...extra,
    });
    const base = byId<HTMLInputElement>('gdd-base').value;
    const cap = byId<HTMLInputElement>('gdd-cap').value;
    const cutoff = byId<HTMLSelectElement>('gdd-cutoff').value;
    if (base !== '') q.set('base', base);
    if (cap !== '') q.set('cap', cap);
    if (cutoff !== 'horizontal') q.set('cutoff', cutoff);
    return `?${q}`;
  }

  /** The field's figures in the settings now; the answers to an earlier field or settings are dropped. */
  async showField(field: Field | null): Promise<void> {
    this.field = field;
    const signal = this.fieldRequest.start();
    this.contours?.remove();
    this.contours = null;
    const out = byId('gdd');
    // 'loaded' only once this field's answer is drawn: a reshaped field's old figures do not count.
    out.dataset.state = 'loading';
    drawLegend(byId('gdd-legend'), []);
    if (!field) {
      out.textContent = 'Select a field for its degree days.';
      showPanelErrors('degree-days', []);
      return;
    }
    out.textContent = 'Computing…';
    try {
      const gdd = await this.api.json<FieldDegreeDays>('agriculture', `/growing-degree-days/${field.id}${this.query()}`, { signal });
      if (signal.aborted) return;
      out.replaceChildren(
        table([
          ['Period', `${gdd.startDate} to ${gdd.endDate}`],
          ['Base', `${gdd.baseTemperature} ${scaleSymbol(gdd.scale)}`],
          ['At the centroid', String(gdd.degreeDays)],
          ['Field mean', String(gdd.fieldMean)],
          ['Field minimum', String(gdd.fieldMinimum)],
          ['Field maximum', String(gdd.fieldMaximum)],
        ]),
      );
      const contours = await this.api.json<Contours>('agriculture', gdd.contours, { signal });
      if (signal.aborted) return;
      const levels = [...new Set(contours.features.map((f) => f.properties.degreeDays))].sort((a, b) => a - b);
      const colors = bandColors(levels.length);
      const colorOf = (v: number) => colors[levels.indexOf(v)] ?? '#888';
      this.contours = L.geoJSON(contours, {
        style: (f) => ({ color: '#444', weight: 0.5, fillColor: colorOf(f?.properties.degreeDays), fillOpacity: 0.6 }),
        onEachFeature: (f, layer) => layer.bindTooltip(`≥ ${f.properties.degreeDays} degree days`),
      }).addTo(this.map);
      drawLegend(
        byId('gdd-legend'),
        levels.map((v, i) => ({ color: colors[i]!, label: `≥ ${v}` })),
      );
      out.dataset.state = 'loaded';
      showPanelErrors('degree-days', []);
    } catch (err) {
      if (signal.aborted) return;
      out.textContent = errorText(err);
      showPanelErrors('degree-days', [err]);
    }
  }

  /**
   * The agriculture area's path for a place's degree days in the panel's settings, with each day's
   * value for the point panel's accumulation chart (include=daily), answered as PointDegreeDays.
   */
  pointPath(place: Place): string {
    return `/growing-degree-days/${placePath(place)}${this.query({ include: 'daily' })}`;
  }

  /**
   * The agriculture area's path for a place's winter chill (PointChill) in the model chosen
   * (decision 0241), from the season's start to the panel's end date. The start is left to the
   * area (the last 1 September before the end in the northern hemisphere, 1 March in the
   * southern): the degree days' start, a month back or a spring biofix, would cut the chill
   * season short.
   */
  chillPointPath(place: Place): string {
    const q = new URLSearchParams({ model: byId<HTMLSelectElement>('chill-model').value, include: 'daily' });
    const end = byId<HTMLInputElement>('gdd-end').value;
    if (end !== '') q.set('end', end);
    return `/chill/${placePath(place)}?${q}`;
  }
}

/** Fills a select with the choices, before anything reads it. */
function offer(id: string, choices: readonly Choice[]): void {
  byId<HTMLSelectElement>(id).replaceChildren(...choices.map((c) => new Option(c.label, c.value, c.selected, c.selected)));
}

function table(rows: [string, string][]): HTMLTableElement {
  const t = document.createElement('table');
  for (const [k, v] of rows) {
    const tr = t.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = k;
    tr.append(th);
    tr.insertCell().textContent = v;
  }
  return t;
}
