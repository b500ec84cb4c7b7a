/// <reference lib="dom" />
import L from 'leaflet';
import type { Api } from './api.js';
import type { PointChart } from './charts.js';
import type { Field } from './fields.js';
import { byId } from './fields.js';
import { bandColors, drawLegend } from './legend.js';
import { showError } from './status.js';

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

interface PointDegreeDays {
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

interface PointChill {
  startDate: string;
  endDate: string;
  units: string;
  chill: number;
  /** each day's chill and the total so far (include=daily) */
  daily: { date: string; chill: number; accumulated: number }[];
}

/** The degree-days panel: a field's value, mean, minimum, maximum and contours (docs/interface.md §3). */
export class DegreeDaysPanel {
  private contours: L.GeoJSON | null = null;
  private field: Field | null = null;

  constructor(
    private readonly api: Api,
    private readonly map: L.Map,
  ) {
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 30));
    byId<HTMLInputElement>('gdd-start').value = start.toISOString().slice(0, 10);
    byId<HTMLInputElement>('gdd-end').value = today.toISOString().slice(0, 10);
    for (const id of ['gdd-start', 'gdd-end', 'gdd-base', 'gdd-method', 'gdd-cap', 'gdd-cutoff'])
      byId(id).addEventListener('change', () => void this.showField(this.field));
  }

  /**
   * The panel's query: dates, base, method, and the upper threshold with its cutoff when given
   * (docs/interface.md §3; every UC IPM method and cutoff, decision 0240). A combination the
   * area refuses (a cutoff without an upper threshold, an upper threshold on the average method)
   * shows the area's own message.
   */
  private query(extra: Record<string, string> = {}): string {
    const q = new URLSearchParams({
      start: byId<HTMLInputElement>('gdd-start').value,
      end: byId<HTMLInputElement>('gdd-end').value,
      base: byId<HTMLInputElement>('gdd-base').value || '10',
      method: byId<HTMLSelectElement>('gdd-method').value,
      ...extra,
    });
    const cap = byId<HTMLInputElement>('gdd-cap').value;
    const cutoff = byId<HTMLSelectElement>('gdd-cutoff').value;
    if (cap !== '') q.set('cap', cap);
    if (cutoff !== 'horizontal') q.set('cutoff', cutoff);
    return `?${q}`;
  }

  async showField(field: Field | null): Promise<void> {
    this.field = field;
    this.contours?.remove();
    this.contours = null;
    const out = byId('gdd');
    // 'loaded' only once this field's answer is drawn: a reshaped field's old figures do not count.
    out.dataset.state = 'loading';
    drawLegend(byId('gdd-legend'), []);
    if (!field) {
      out.textContent = 'Select a field for its degree days.';
      return;
    }
    out.textContent = 'Computing…';
    try {
      const gdd = await this.api.json<FieldDegreeDays>('agriculture', `/growing-degree-days/${field.id}${this.query()}`);
      if (this.field?.id !== field.id) return;
      out.replaceChildren(
        table([
          ['Period', `${gdd.startDate} to ${gdd.endDate}`],
          ['Base', `${gdd.baseTemperature} ${gdd.scale}`],
          ['At the centroid', String(gdd.degreeDays)],
          ['Field mean', String(gdd.fieldMean)],
          ['Field minimum', String(gdd.fieldMinimum)],
          ['Field maximum', String(gdd.fieldMaximum)],
        ]),
      );
      const contours = await this.api.json<Contours>('agriculture', gdd.contours);
      if (this.field?.id !== field.id) return;
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
    } catch (err) {
      out.textContent = err instanceof Error ? err.message : String(err);
      showError(err);
    }
  }

  /** A point's degree days in the panel's query, with each day's value for the point panel's accumulation chart (include=daily). */
  atPoint(lat: number, lon: number): Promise<PointDegreeDays> {
    return this.api.json<PointDegreeDays>(
      'agriculture',
      `/growing-degree-days/${lat.toFixed(4)}/${lon.toFixed(4)}${this.query({ include: 'daily' })}`,
    );
  }

  /** A point's winter chill since the season's start, in the model chosen (decision 0241). */
  chillAtPoint(lat: number, lon: number): Promise<PointChill> {
    const model = byId<HTMLSelectElement>('chill-model').value;
    return this.api.json<PointChill>('agriculture', `/chill/${lat.toFixed(4)}/${lon.toFixed(4)}?model=${model}&include=daily`);
  }
}

/** The point panel's line for a point's chill. */
export function describeChill(chill: PointChill): string {
  return `${chill.chill} ${chill.units} since ${chill.startDate}`;
}

/** The point panel's line for a point's degree days. */
export function describePoint(gdd: PointDegreeDays): string {
  return `${gdd.degreeDays} degree days (base ${gdd.baseTemperature}, ${gdd.startDate} to ${gdd.endDate})`;
}

/** An answer with each day's total so far (docs/interface.md §3, include=daily). */
interface Accumulated {
  daily: { date: string; accumulated: number }[];
}

/** The accumulation curve of a point's degree days or chill, as the point panel charts it. */
export function accumulationChart<T extends Accumulated>(title: string, answer: Promise<T>, unit: (answer: T) => string): PointChart {
  return [
    title,
    async () => {
      const body = await answer;
      return {
        times: body.daily.map((d) => Date.parse(d.date) / 1000),
        values: body.daily.map((d) => d.accumulated),
        unit: unit(body),
      };
    },
  ];
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
