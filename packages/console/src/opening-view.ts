/**
 * What the console shows first (docs/decisions/0356-opening-view-drawn-ahead.md): the map's
 * centre and zoom as it opens, and the product whose newest frame of the past it shows there. The
 * tiles area draws those tiles of each new frame before anyone asks, so the console's first
 * weather arrives at once.
 */
export const OPENING_VIEW = {
  product: 'air-temperature',
  latitude: 39,
  longitude: -96,
  zoom: 4,
} as const;
