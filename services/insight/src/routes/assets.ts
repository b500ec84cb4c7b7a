import { type Api, BodyFault, ownedResourceRoutes } from '@fieldcast/kit';
import { Asset, AssetInput, MAX_ASSET_AREA_KM2 } from '@fieldcast/schemas';
import { assetRecord, assetView } from '../domain/assets.js';
import type { AssetStore } from '../store.js';

const geometryFault = BodyFault.semantic('invalid_geometry', 'The asset is not one Polygon Feature with string tags');

const RULES = `A FeatureCollection of exactly one Feature whose geometry is one Polygon (the fields' ring and polygon rules, docs/interface.md §2); its properties are the tags (string to string, at most 100, keys and values of at most 1,000 characters; null or {} for none). Faults are 422 invalid_geometry with the path of each; a polygon over ${MAX_ASSET_AREA_KM2.toLocaleString('en')} km² (spherical, as @turf/area measures it, holes subtracted) is 422 asset_too_large.`;

/** Assets (spec 2.2, 4.4): each account sees and changes only its own. */
export function assetRoutes(api: Api, assets: AssetStore): Api {
  return ownedResourceRoutes(api, assets, {
    kind: 'asset',
    path: '/assets',
    tag: 'assets',
    noun: { one: 'asset', many: 'assets' },
    input: AssetInput,
    // Every fault inside the collection is a bad asset geometry or tag map (422, as the spec's
    // invalid_geometry); a body that is no JSON object is malformed (400).
    bodyFaults: { type: geometryFault, features: geometryFault },
    view: Asset,
    build: assetRecord,
    present: assetView,
    docs: {
      create: {
        summary: 'Create an asset from a Polygon Feature',
        description: RULES,
        response: 'The created asset, its Polygon as a MultiPolygon, with its centroid and tags',
      },
      replace: { description: RULES },
    },
  });
}
