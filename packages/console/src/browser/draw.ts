/// <reference lib="dom" />
import L from 'leaflet';
import { mapKeyAction } from './map-keys.js';

/**
 * A small polygon draw tool on Leaflet's click events: each click (or Space, at the map's centre)
 * adds a vertex, Finish (Enter, or a click on the first vertex) closes the ring, Cancel or Escape
 * drops it (map-keys.ts).
 */
export class PolygonDraw {
  private points: L.LatLng[] = [];
  private line: L.Polyline | null = null;
  private markers: L.CircleMarker[] = [];
  private active = false;

  constructor(
    private readonly map: L.Map,
    private readonly onFinish: (ring: [number, number][]) => void,
    private readonly onStateChange: (drawing: boolean, vertices: number) => void,
  ) {
    map.on('click', (e: L.LeafletMouseEvent) => {
      if (this.active) this.add(e.latlng);
    });
    const container = map.getContainer();
    container.addEventListener('keydown', (e) => {
      if (!this.active) return;
      const action = mapKeyAction(e.key, e.target === container, true);
      if (action) e.preventDefault();
      if (action === 'cancel') this.cancel();
      if (action === 'finish') this.finish();
      if (action === 'add-vertex') this.add(map.getCenter());
    });
  }

  get drawing(): boolean {
    return this.active;
  }

  start(): void {
    this.clear();
    this.active = true;
    this.map.getContainer().style.cursor = 'crosshair';
    this.onStateChange(true, 0);
  }

  cancel(): void {
    this.clear();
    this.onStateChange(false, 0);
  }

  /** Closes the ring (RFC 7946: first position repeated last) and hands it over as [lon, lat]. */
  finish(): void {
    if (this.points.length < 3) return;
    const ring = this.points.map((p) => [round(p.lng), round(p.lat)] as [number, number]);
    ring.push([...ring[0]!] as [number, number]);
    this.clear();
    this.onStateChange(false, 0);
    this.onFinish(ring);
  }

  private add(point: L.LatLng): void {
    this.points.push(point);
    const marker = L.circleMarker(point, { radius: 5, color: '#d35400', fillOpacity: 1 }).addTo(this.map);
    if (this.points.length === 1) marker.on('click', (e) => (L.DomEvent.stop(e), this.finish()));
    this.markers.push(marker);
    if (this.line) this.line.setLatLngs(this.points);
    else this.line = L.polyline(this.points, { color: '#d35400', dashArray: '4 4' }).addTo(this.map);
    this.onStateChange(true, this.points.length);
  }

  private clear(): void {
    this.active = false;
    this.map.getContainer().style.cursor = '';
    this.line?.remove();
    this.line = null;
    for (const m of this.markers) m.remove();
    this.markers = [];
    this.points = [];
  }
}

/** Six decimals, about 0.1 m: enough for a field, and short in the request. */
export function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
