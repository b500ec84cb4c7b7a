/// <reference lib="dom" />
import L from 'leaflet';
import type { Api } from './api.js';
import { byId } from './fields.js';
import type { Place } from './place.js';
import { errorText } from './status.js';
import { tooltipText } from './tooltip-text.js';

/** The severe-weather types whose history is shown near a point (docs/interface.md §11). */
const TYPES = ['hailsize', 'tornado', 'stormreports'] as const;

/** How far from the place the archive is asked for severe weather, in statute miles (the archive's radius unit). */
const RADIUS_MILES = 20;

/** Metres in a statute mile (international mile, 1959). */
const METRES_PER_MILE = 1609.344;

/** ISO 6709 `+DD.dddd-DDD.dddd`, as the archive names a point. */
function iso6709({ latitude: lat, longitude: lon }: Place): string {
  const sign = (v: number) => (v < 0 ? '-' : '+');
  const abs = (v: number, width: number) =>
    Math.abs(v)
      .toFixed(4)
      .padStart(width + 5, '0');
  return `${sign(lat)}${abs(lat, 2)}${sign(lon)}${abs(lon, 3)}`;
}

/**
 * Severe-weather history within 20 miles of a point as markers. The archive authenticates with
 * its own user and token in the query (docs/interface.md §11), which only the embedded fleet's
 * demo archive user provides; without one the panel says so.
 */
export class ArchiveMarkers {
  private readonly layer: L.LayerGroup;

  constructor(
    private readonly api: Api,
    map: L.Map,
  ) {
    this.layer = L.layerGroup().addTo(map);
  }

  /**
   * The markers and list of the place, in place of the last place's. `signal` is aborted when
   * another place is clicked: this place's answers are then dropped, however late they arrive.
   */
  async near(place: Place, signal: AbortSignal): Promise<void> {
    this.layer.clearLayers();
    // The place the panel answers for, and the circle its severe weather comes from: the numbers
    // beside the map say where they are for, also after the map is moved. Not interactive, so a
    // click on them is a click on the map.
    const at: L.LatLngExpression = [place.latitude, place.longitude];
    L.circle(at, {
      radius: RADIUS_MILES * METRES_PER_MILE,
      className: 'point-search-radius',
      color: '#20364d',
      weight: 1,
      dashArray: '4 4',
      fill: false,
      interactive: false,
    }).addTo(this.layer);
    L.circleMarker(at, {
      radius: 6,
      className: 'point-place',
      color: '#fff',
      weight: 2,
      fillColor: '#20364d',
      fillOpacity: 1,
      interactive: false,
    }).addTo(this.layer);
    const list = byId('archive');
    list.replaceChildren();
    const user = this.api.config.archive;
    if (!user) {
      list.append(item('Severe-weather history needs an archive user (fieldcast archive register).'));
      return;
    }
    const query = new URLSearchParams({ radius: String(RADIUS_MILES), u: user.user, t: user.token });
    const found = await Promise.all(
      TYPES.map(async (type) => {
        try {
          const path = `/v2/${type}/history/${iso6709(place)}?${query}`;
          const body = await this.api.json<{ data?: unknown }>('archive', path, { anonymous: true, signal });
          return { type, records: features(body.data) };
        } catch (err) {
          return { type, records: [], error: errorText(err) };
        }
      }),
    );
    if (signal.aborted) return;
    // The types fail alike when the archive does: its message once.
    for (const error of new Set(found.flatMap(({ error }) => (error === undefined ? [] : [error])))) list.append(item(error));
    for (const { type, records } of found) {
      for (const f of records) {
        const [flon = 0, flat = 0] = f.geometry.coordinates;
        const when = String(f.properties?.time ?? f.properties?.date ?? f.properties?.eventTime ?? '');
        L.circleMarker([flat, flon], { radius: 6, color: '#6a1b9a', fillOpacity: 0.7 })
          .bindTooltip(tooltipText(`${type} ${when}`))
          .addTo(this.layer);
      }
    }
    // A count only of what the archive answered: with every type refused it knows of nothing.
    if (found.every(({ error }) => error !== undefined)) return;
    const count = found.reduce((sum, { records }) => sum + records.length, 0);
    list.prepend(item(`${count} severe-weather records within ${RADIUS_MILES} miles in the last 90 days.`));
  }
}

function features(data: unknown): GeoJSON.Feature<GeoJSON.Point, Record<string, unknown> | null>[] {
  const collection = data as { features?: GeoJSON.Feature[] } | null;
  const all = Array.isArray(collection?.features) ? collection.features : [];
  return all.filter((f): f is GeoJSON.Feature<GeoJSON.Point, Record<string, unknown> | null> => f.geometry?.type === 'Point');
}

function item(text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}
