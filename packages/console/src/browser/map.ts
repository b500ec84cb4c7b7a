/// <reference lib="dom" />
import L from 'leaflet';
import { feature, mesh } from 'topojson-client';
import { OPENING_VIEW } from '../opening-view.js';

/** The TopoJSON topology type, as topojson-client declares it. */
type Topology = Parameters<typeof mesh>[0];
type TopoObject = NonNullable<Parameters<typeof mesh>[1]>;

/**
 * The closest zoom (about 0.6 m a pixel at 40 degrees): a field's corners can be placed on it. The
 * weather tiles stop at their native zoom and are drawn larger past it (tiles.ts), as the offline
 * base's 1:50m shapes are; OpenStreetMap serves down to 19 (decision 0527).
 */
export const MAX_ZOOM = 18;

/** The closest zoom a selected field or asset is fitted at: a small field fills the map, not one of its furrows (decision 0527). */
export const FIT_ZOOM = 16;

/**
 * The map and its offline base: Natural Earth land and country borders from the world-atlas
 * package, drawn as vectors (decision 0192). OpenStreetMap is an option for when online.
 */
export async function createMap(element: HTMLElement): Promise<L.Map> {
  const map = L.map(element, { worldCopyJump: true, minZoom: 1, maxZoom: MAX_ZOOM, keyboard: true }).setView(
    [OPENING_VIEW.latitude, OPENING_VIEW.longitude],
    OPENING_VIEW.zoom,
  );
  map.createPane('basemap').style.zIndex = '150';
  const [land, countries] = await Promise.all([loadTopology('/atlas/land.json'), loadTopology('/atlas/countries.json')]);
  // The land object is a GeometryCollection, so feature() gives a FeatureCollection.
  const landShapes = feature(land, land.objects.land as TopoObject) as GeoJSON.GeoJsonObject;
  const landLayer = L.geoJSON(landShapes, {
    pane: 'basemap',
    interactive: false,
    style: { color: '#7c8a6e', weight: 0.5, fillColor: '#eef0e2', fillOpacity: 1 },
  });
  const borders = L.geoJSON(
    mesh(countries, countries.objects.countries as TopoObject, (a, b) => a !== b),
    {
      pane: 'basemap',
      interactive: false,
      style: { color: '#8f8f8f', weight: 0.7, dashArray: '3 2' },
    },
  );
  const offline = L.layerGroup([landLayer, borders]).addTo(map);
  const osm = L.tileLayer('https://tile.openstreetmap.org/{z}/{x}/{y}.png', {
    maxZoom: 19,
    attribution: '&copy; OpenStreetMap contributors',
  });
  L.control.layers({ 'Natural Earth (offline)': offline, 'OpenStreetMap (online)': osm }, {}, { collapsed: true }).addTo(map);
  map.attributionControl.addAttribution('Natural Earth');
  return map;
}

async function loadTopology(path: string): Promise<Topology> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`The base map ${path} could not be loaded (HTTP ${response.status})`);
  return (await response.json()) as Topology;
}
