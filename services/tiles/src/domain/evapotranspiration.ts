/**
 * The evapotranspiration layer of a tile: hourly short-crop reference ET (ASCE-EWRI 2005, the
 * science package's `shortCropEtOfHour`, the computation the platform area's datapoint of the
 * same frame uses) at each pixel centre, from the five hourly inputs and the ground height
 * sampled there (docs/decisions/0132-tile-rendering.md). Bands are read with the source's
 * `etInputsIn` (one call for the inputs of a window), pixels of low zooms as point grids where
 * the source reads them (sampling.ts), else with `etInputsAt`.
 */
import { shortCropEtOfHour } from '@fieldcast/science';
import { ET_INPUT_VARIABLES, type GridSource, type GridWindow, type PointSeries, pointGridSource } from '@fieldcast/weather';
import { NO_DATA } from './colorize.js';
import { bboxOfPoints, type SampleMode, sampleWindow, type TileReader } from './sampling.js';

/** The ground height: a field of the grid that does not change with time, read at the start of coverage. */
const ALTITUDE = 'surface_altitude';

/** Whether the source holds every input of the layer. */
export function evapotranspirationReadable(source: GridSource): boolean {
  const variables = new Set(source.variables().map((v) => v.id as string));
  return [...Object.values(ET_INPUT_VARIABLES), ALTITUDE].every((v) => variables.has(v));
}

/** ET of the hour starting at timeMs, mm h-1, through the tile's band and pixel reads. */
export function evapotranspirationReader(source: GridSource, timeMs: number, mode: SampleMode): TileReader {
  const range = { startMs: timeMs, endMs: timeMs };
  const groundMs = source.coverage().startMs;
  const etAt = (lon: number, lat: number, t: number, td: number, rs: number, u: number, z: number): number => {
    if (t === NO_DATA || td === NO_DATA || rs === NO_DATA || u === NO_DATA || z === NO_DATA) return NO_DATA;
    return shortCropEtOfHour({
      airTemperature: t,
      dewpoint: td,
      shortwave: rs,
      windSpeed: u,
      elevation: z,
      latitude: lat,
      longitude: lon,
      hourStartMs: timeMs,
    });
  };
  return {
    async window(bbox) {
      const [inputs, ground] = await Promise.all([source.etInputsIn(bbox, range), source.slice(ALTITUDE, bbox, groundMs)]);
      const at = (w: GridWindow, lon: number, lat: number) => sampleWindow(w, lon, lat, mode);
      return (lon, lat) => {
        const place = mode === 'discrete' ? nearestPoint(inputs.airTemperature, lon, lat) : { lon, lat };
        return etAt(
          place.lon,
          place.lat,
          at(inputs.airTemperature, lon, lat),
          at(inputs.dewpoint, lon, lat),
          at(inputs.shortwave, lon, lat),
          at(inputs.windSpeed, lon, lat),
          at(ground, lon, lat),
        );
      };
    },
    async point(lon, lat) {
      const [inputs, ground] = await Promise.all([
        source.etInputsAt(lon, lat, range),
        source.pointSeries(ALTITUDE, lon, lat, { startMs: groundMs, endMs: groundMs }),
      ]);
      const first = (s: PointSeries) => (s.values.length > 0 ? s.values[0]! : NO_DATA);
      return etAt(
        lon,
        lat,
        first(inputs.airTemperature),
        first(inputs.dewpoint),
        first(inputs.shortwave),
        first(inputs.windSpeed),
        first(ground),
      );
    },
    async points(lats, lons) {
      const bbox = bboxOfPoints(lats, lons);
      const reader = pointGridSource(source, INPUTS, bbox, timeMs);
      const groundReader = pointGridSource(source, [ALTITUDE], bbox, groundMs);
      if (!reader || !groundReader) return null;
      const [[t, td, rs, u], [z]] = await Promise.all([
        reader.pointGrid(INPUTS, lats, lons, timeMs),
        groundReader.pointGrid([ALTITUDE], lats, lons, groundMs),
      ]);
      const out = new Float32Array(lats.length * lons.length);
      const at = (values: Float32Array, o: number) => (values.length > 0 ? values[o]! : NO_DATA);
      for (let r = 0, o = 0; r < lats.length; r++) {
        for (let c = 0; c < lons.length; c++, o++) {
          out[o] = etAt(lons[c]!, lats[r]!, at(t!, o), at(td!, o), at(rs!, o), at(u!, o), at(z!, o));
        }
      }
      return out;
    },
  };
}

/** The hourly inputs the layer reads, in the order of etAt's arguments. */
const INPUTS = [ET_INPUT_VARIABLES.airTemperature, ET_INPUT_VARIABLES.dewpoint, ET_INPUT_VARIABLES.shortwave, ET_INPUT_VARIABLES.windSpeed];

/** The grid point of a window nearest (lon, lat): where a `discrete` pixel takes its value, and so its place. */
function nearestPoint(w: GridWindow, lon: number, lat: number): { lon: number; lat: number } {
  const nLat = w.lats.length;
  const nLon = w.lons.length;
  if (nLat === 0 || nLon === 0) return { lon, lat };
  const i = Math.min(nLat - 1, Math.max(0, Math.round((lat - w.lats[0]!) / w.dLat)));
  const j = Math.min(nLon - 1, Math.max(0, Math.round((lon - w.lons[0]!) / w.dLon)));
  return { lon: w.lons[j]!, lat: w.lats[i]! };
}
