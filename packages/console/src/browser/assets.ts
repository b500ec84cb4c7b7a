/// <reference lib="dom" />
import L from 'leaflet';
import type { Api } from './api.js';
import { assetLabel } from './asset-label.js';
import { showError } from './status.js';
import { tooltipText } from './tooltip-text.js';

/** An insight asset (docs/interface.md §5): one polygon, with a description of string properties. */
interface Asset {
  id: string;
  type: 'GeometryCollection';
  geometries: GeoJSON.MultiPolygon[];
  description: Record<string, string> | string | null;
}

/** The account's insight assets, drawn in blue beside the fields (read-only here). */
export async function drawAssets(api: Api, map: L.Map): Promise<void> {
  try {
    const assets = await api.json<Asset[]>('insight', '/assets');
    for (const asset of assets) {
      L.geoJSON({ type: 'GeometryCollection', geometries: asset.geometries } as GeoJSON.GeometryCollection, {
        style: { color: '#1d4ed8', weight: 2, fillOpacity: 0.08, dashArray: '6 3' },
      })
        .bindTooltip(tooltipText(assetLabel(asset)))
        .addTo(map);
    }
  } catch (err) {
    showError(err);
  }
}
