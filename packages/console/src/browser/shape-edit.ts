/// <reference lib="dom" />
import L from 'leaflet';
import { round } from './draw.js';

/** One ring as [longitude, latitude] positions, closed (RFC 7946 §3.1.6). */
export type Ring = [number, number][];

/** One Polygon's rings: the shell, then any holes (RFC 7946 §3.1.6). */
export type PolygonRings = Ring[];

/** The fewest distinct vertices a ring can have (RFC 7946 §3.1.6: four positions, the first repeated). */
const MIN_VERTICES = 3;

const vertexIcon = L.divIcon({ className: 'vertex-handle', iconSize: [14, 14] });
const midpointIcon = L.divIcon({ className: 'midpoint-handle', iconSize: [12, 12] });

/**
 * Edits the shape of a field's polygons on the map: drag a vertex to move it, click it (or Enter
 * on it) to remove it, click a midpoint handle to add a vertex on that edge. Every handle is a
 * focusable button (Leaflet's keyboard option). The geometry is checked by the agriculture area
 * on save, so a ring may be made invalid here and the area's message shows where.
 */
export class ShapeEdit {
  /** polygon, ring, vertex: each ring open (its closing position dropped while editing) */
  private polygons: L.LatLng[][][] = [];
  private readonly layer = L.layerGroup();

  constructor(
    private readonly map: L.Map,
    private readonly onStateChange: (editing: boolean) => void,
  ) {}

  get editing(): boolean {
    return this.polygons.length > 0;
  }

  start(polygons: PolygonRings[]): void {
    this.polygons = polygons.map((rings) => rings.map((ring) => ring.slice(0, -1).map(([lon, lat]) => L.latLng(lat, lon))));
    this.layer.addTo(this.map);
    this.redraw();
    this.onStateChange(true);
  }

  stop(): void {
    this.polygons = [];
    this.layer.clearLayers();
    this.layer.remove();
    this.onStateChange(false);
  }

  /** The edited polygons as GeoJSON Polygon coordinates: [lon, lat], each ring closed again. */
  result(): PolygonRings[] {
    return this.polygons.map((rings) =>
      rings.map((ring) => {
        const positions = ring.map((p) => [round(p.lng), round(p.lat)] as [number, number]);
        return [...positions, [...positions[0]!] as [number, number]];
      }),
    );
  }

  private redraw(): void {
    this.layer.clearLayers();
    for (const rings of this.polygons) {
      const outline = L.polygon(rings, { color: '#d35400', weight: 2, dashArray: '4 4', fillOpacity: 0.1, interactive: false });
      this.layer.addLayer(outline);
      for (const ring of rings) {
        ring.forEach((vertex, i) => this.layer.addLayer(this.vertexHandle(ring, i, vertex, () => outline.setLatLngs(rings))));
        ring.forEach((vertex, i) => this.layer.addLayer(this.midpointHandle(ring, i, vertex, ring[(i + 1) % ring.length]!)));
      }
    }
  }

  private vertexHandle(ring: L.LatLng[], i: number, vertex: L.LatLng, moved: () => void): L.Marker {
    const removable = ring.length > MIN_VERTICES;
    const marker = L.marker(vertex, {
      icon: vertexIcon,
      draggable: true,
      keyboard: true,
      title: removable ? 'Drag to move this vertex; click to remove it' : 'Drag to move this vertex',
    });
    marker.on('drag', () => {
      ring[i] = marker.getLatLng();
      moved();
    });
    // The midpoints follow once the vertex is dropped.
    marker.on('dragend', () => this.redraw());
    // Leaflet fires no click after a drag, so a click here is a deliberate one.
    marker.on('click', () => {
      if (ring.length <= MIN_VERTICES) return;
      ring.splice(i, 1);
      this.redraw();
    });
    return marker;
  }

  private midpointHandle(ring: L.LatLng[], i: number, from: L.LatLng, to: L.LatLng): L.Marker {
    // The midpoint in the map's projection, where the edge is drawn straight.
    const a = this.map.project(from, 0);
    const b = this.map.project(to, 0);
    const middle = this.map.unproject(a.add(b).divideBy(2), 0);
    return L.marker(middle, { icon: midpointIcon, keyboard: true, title: 'Click to add a vertex here' }).on('click', () => {
      ring.splice(i + 1, 0, middle);
      this.redraw();
    });
  }
}
