/**
 * A place clicked on the map, as the areas take it. The map repeats the world east and west of
 * the antimeridian (worldCopyJump), so a click there lies beyond ±180, while the areas' location
 * paths accept -180..180 only (docs/interface.md §3). No DOM here, so it is tested in Node.
 */

export interface Place {
  latitude: number;
  /** -180 to 180 */
  longitude: number;
}

/**
 * The place under a map position: the longitude wrapped into [-180, 180) as Leaflet's
 * LatLng.wrap() does (Leaflet itself needs a browser to load, so Node could not test it).
 */
export function placeAt(position: { lat: number; lng: number }): Place {
  return { latitude: position.lat, longitude: ((((position.lng + 180) % 360) + 360) % 360) - 180 };
}

/** The place as the areas' location paths take it, `{latitude}/{longitude}` to four decimals (about 10 m). */
export function placePath(place: Place): string {
  return `${place.latitude.toFixed(4)}/${place.longitude.toFixed(4)}`;
}

/** The place as the point panel names it. */
export function placeText(place: Place): string {
  return `${place.latitude.toFixed(4)}, ${place.longitude.toFixed(4)}`;
}
