/**
 * The evapotranspiration layer of a tile: hourly short-crop reference ET (ASCE-EWRI 2005, the
 * science package's `shortCropEtOfHour`, the computation the platform area's datapoint of the
 * same frame uses) at each pixel centre, from the instants at the hour's start, the shortwave of
 * the hour and the ground height sampled there (docs/decisions/0132-tile-rendering.md). Bands are
 * read as every variable's are, from the source that answers them (sampling.ts `bandWindow`), with
 * its `etInputsIn` (one call for the inputs of a window, over the instant and the stamps the
 * hour's shortwave takes), pixels of low zooms as point grids where the source
 * reads them (sampling.ts), else with `etInputsAt`.
 */
import { shortCropEtOfHour } from '@fieldcast/science';
import {
  type BBox,
  type Place,
  ET_INPUT_KEYS,
  ET_INPUT_VARIABLES,
  ERROR_RULES,
  type ErrorRun,
  type EtInputs,
  forecastAt,
  forecastEtInputs,
  type GridSource,
  type GridWindow,
  etHourInputsAt,
  etHoursReadRange,
  type MeanWeights,
  meanWeights,
  pointGridSource,
  pointsSource,
  stampIndex,
  type TimeRange,
  timeCellOf,
  weightedValue,
} from '@fieldcast/weather';
import { NO_DATA } from './colorize.js';
import {
  type BandWindow,
  bandWindow,
  bboxOfPoints,
  gridOfWindow,
  nearestGridPoint,
  pointPlace,
  pointPlaces,
  type SampleMode,
  sampleWindow,
  type TileReader,
} from './sampling.js';

/** The ground height: a field of the grid that does not change with time, read at the start of coverage. */
const ALTITUDE = 'surface_altitude';

const HOUR_MS = 3_600_000;

const SHORTWAVE = ET_INPUT_VARIABLES.shortwave;

/** Whether the source holds every input of the layer. */
export function evapotranspirationReadable(source: GridSource): boolean {
  const variables = new Set(source.variables().map((v) => v.id as string));
  return [...Object.values(ET_INPUT_VARIABLES), ALTITUDE].every((v) => variables.has(v));
}

/**
 * ET of the hour starting at timeMs, mm h-1, through the tile's band and pixel reads. With `run`
 * (a forecast frame of a product whose runs are a model's), each input carries that run's error at
 * timeMs, as the model area's series of the run has it (forecastAt), and ET is computed from them,
 * as the platform area's datapoint of the frame is (docs/decisions/0496-product-runs-are-a-models-runs.md).
 */
export function evapotranspirationReader(source: GridSource, timeMs: number, mode: SampleMode, run?: ErrorRun): TileReader {
  const groundMs = source.coverage().startMs;
  const hourEndMs = timeMs + HOUR_MS;
  const rangeAt = (place: Place): TimeRange => etHoursReadRange(source, place, timeMs, timeMs);
  const forecast = run ? forecastAt(run, timeMs) : null;
  const etAt = (lon: number, lat: number, t: number, td: number, rs: number, u: number, z: number): number => {
    // The hour's shortwave is NaN where the stamps read do not cover the hour (time-cells.ts).
    if (t === NO_DATA || td === NO_DATA || rs === NO_DATA || u === NO_DATA || z === NO_DATA || Number.isNaN(rs)) return NO_DATA;
    const truth = { airTemperature: t, dewpoint: td, shortwave: rs, windSpeed: u };
    const inputs = forecast ? forecastEtInputs((v, value, tt) => forecast(ERROR_RULES[v], lat, lon, value, tt), truth) : truth;
    return shortCropEtOfHour({
      ...inputs,
      elevation: z,
      latitude: lat,
      longitude: lon,
      hourStartMs: timeMs,
    });
  };
  /**
   * The stamps a band's inputs are read over: those the point reads of its pixels take, by the time
   * cells of the source that answers each one's shortwave (hoursReadRange), so a band is read from
   * the sources its pixels' point reads go to over the stamps they read, beside a store's edge too
   * (where a box within a cell of the store routes to it); null where that source is not one for
   * every pixel centre of centres (their bbox).
   */
  const readsOf = (centres: BBox): { shortwave: GridSource; range: TimeRange } | null => {
    const shortwave = pointsSource(source, SHORTWAVE, centres, { startMs: timeMs, endMs: timeMs });
    return shortwave && { shortwave, range: rangeAt({ lon: centres[0], lat: centres[1] }) };
  };
  return {
    async window(bbox, centres = bbox) {
      const range = readsOf(centres)?.range;
      if (!range) return null;
      const reads = ET_INPUT_KEYS.map((k) => bandWindow(source, ET_INPUT_VARIABLES[k], bbox, centres, range));
      const groundRead = bandWindow(source, ALTITUDE, bbox, centres, { atMs: groundMs });
      // Where an input's pixel centres go to different sources, the band is cut into parts (sampling.ts).
      if (!groundRead || !reads.every((r): r is BandWindow => r !== null)) return null;
      const [inputs, ground] = await Promise.all([
        etInputsWindows(reads, range),
        groundRead.answering.slice(ALTITUDE, groundRead.box, groundMs),
      ]);
      // Each grid point's values of the hour once for the band, then sampled per pixel as one time step.
      const step = (w: GridWindow) => windowStep(w, stampIndex(w, timeMs));
      const t = step(inputs.airTemperature);
      const td = step(inputs.dewpoint);
      const u = step(inputs.windSpeed);
      const sw = hourMeanWindow(inputs.shortwave, timeMs, hourEndMs);
      const at = (w: GridWindow | null, lon: number, lat: number) => (w ? sampleWindow(w, lon, lat, mode) : NO_DATA);
      return (lon, lat) => {
        const place = mode === 'discrete' ? nearestGridPoint(gridOfWindow(inputs.airTemperature), lon, lat) : { lon, lat };
        return etAt(place.lon, place.lat, at(t, lon, lat), at(td, lon, lat), at(sw, lon, lat), at(u, lon, lat), at(ground, lon, lat));
      };
    },
    answering(centres) {
      // Every input and the ground must go to one source each, as a band's window reads them.
      const reads = readsOf(centres);
      if (!reads) return null;
      const each = [
        reads.shortwave,
        ...ET_INPUT_KEYS.map((k) => pointsSource(source, ET_INPUT_VARIABLES[k], centres, reads.range)),
        pointsSource(source, ALTITUDE, centres, { atMs: groundMs }),
      ];
      return each.every((s): s is GridSource => s !== null) ? each : null;
    },
    async point(lon, lat) {
      // A discrete pixel's place: the nearest grid point of the source whose temperature answers
      // there, as a band's is the nearest point of its temperature window.
      const at = pointPlace(source, ET_INPUT_VARIABLES.airTemperature, lon, lat, rangeAt({ lon, lat }), mode);
      const [hour, ground] = await Promise.all([
        etHourInputsAt(source, at.lon, at.lat, timeMs, timeMs),
        source.pointSeries(ALTITUDE, at.lon, at.lat, { startMs: groundMs, endMs: groundMs }),
      ]);
      if (hour.startMs !== timeMs || hour.airTemperature.length === 0 || ground.values.length === 0) return NO_DATA;
      return etAt(at.lon, at.lat, hour.airTemperature[0]!, hour.dewpoint[0]!, hour.shortwave[0]!, hour.windSpeed[0]!, ground.values[0]!);
    },
    async points(centreLats, centreLons) {
      const bbox = bboxOfPoints(centreLats, centreLons);
      const range = readsOf(bbox)?.range;
      if (!range) return null;
      const reader = pointGridSource(source, INPUTS, bbox, range);
      const groundReader = pointGridSource(source, [ALTITUDE], bbox, groundMs);
      if (!reader || !groundReader) return null;
      const { lats, lons } = pointPlaces(reader.grid, centreLats, centreLons, mode);
      // One source answers every input here, so the shortwave's stamps lie on the instants' steps.
      const weights = shortwaveWeights(reader, range, timeMs, hourEndMs);
      if (!weights) return new Float32Array(lats.length * lons.length).fill(NO_DATA);
      const swStamps = Array.from(weights.weights, (_, j) => weights.startMs + (weights.first + j) * weights.stepMs);
      // The instants and the shortwave at timeMs in one point grid where the hour's shortwave takes that stamp.
      const swAtInstant = swStamps.indexOf(timeMs);
      const [[t, td, u, swAt], [z], ...later] = await Promise.all([
        reader.pointGrid(swAtInstant >= 0 ? [...INSTANTS, SHORTWAVE] : INSTANTS, lats, lons, timeMs),
        groundReader.pointGrid([ALTITUDE], lats, lons, groundMs),
        ...swStamps.map((ms) => (ms === timeMs ? Promise.resolve([]) : reader.pointGrid([SHORTWAVE], lats, lons, ms))),
      ]);
      const sw = swStamps.map((ms, j) => (ms === timeMs ? swAt! : later[j]![0]!));
      const out = new Float32Array(lats.length * lons.length);
      const at = (values: Float32Array, o: number) => (values.length > 0 ? values[o]! : NO_DATA);
      for (let r = 0, o = 0; r < lats.length; r++) {
        for (let c = 0; c < lons.length; c++, o++) {
          let rs = 0;
          for (let j = 0; j < sw.length; j++) rs += weights.weights[j]! * (sw[j]!.length > 0 ? sw[j]![o]! : Number.NaN);
          out[o] = etAt(lons[c]!, lats[r]!, at(t!, o), at(td!, o), rs, at(u!, o), at(z!, o));
        }
      }
      return out;
    },
  };
}

/**
 * The ET inputs' windows of a band, each read (in ET_INPUT_KEYS order) as a variable's band window
 * is (bandWindow: from the source that answers it, on its grid): in one call where one source
 * answers every input over the same box.
 */
async function etInputsWindows(reads: readonly BandWindow[], range: TimeRange): Promise<EtInputs<GridWindow>> {
  const [first] = reads;
  if (reads.every((r) => r.answering === first!.answering)) return first!.answering.etInputsIn(first!.box, range);
  const windows = await Promise.all(reads.map((r, i) => r.answering.window(ET_INPUT_VARIABLES[ET_INPUT_KEYS[i]!], r.box, range)));
  return Object.fromEntries(ET_INPUT_KEYS.map((k, i) => [k, windows[i]!])) as unknown as EtInputs<GridWindow>;
}

/** Time step k of a window as a window of that one step; null where it has no such step. */
function windowStep(w: GridWindow, k: number): GridWindow | null {
  const n = w.lats.length * w.lons.length;
  if (k < 0 || k >= w.nt) return null;
  return { ...w, startMs: w.startMs + k * w.stepMs, nt: 1, values: w.values.subarray(k * n, (k + 1) * n) };
}

/** A window's mean over [fromMs, toMs) at each grid point, as a window of one step; null where its stamps do not cover it. */
function hourMeanWindow(w: GridWindow, fromMs: number, toMs: number): GridWindow | null {
  const weights = meanWeights({ startMs: w.startMs, stepMs: w.stepMs, length: w.nt, timeCell: w.timeCell }, fromMs, toMs);
  if (!weights) return null;
  const n = w.lats.length * w.lons.length;
  const values = Float32Array.from({ length: n }, (_, o) => weightedValue(w.values, weights, o, n));
  return { ...w, startMs: fromMs, nt: 1, values };
}

/**
 * The weights of the hour's shortwave over the stamps of `range` on the source that reads the
 * tile's point grids (its stamps, step and time cell); null where they do not cover the hour.
 */
function shortwaveWeights(
  reader: GridSource,
  range: TimeRange,
  fromMs: number,
  toMs: number,
): (MeanWeights & { startMs: number; stepMs: number }) | null {
  const info = reader.variables().find((v) => v.id === SHORTWAVE);
  if (!info || !(info.stepMs > 0)) return null;
  const startMs = fromMs + Math.ceil((range.startMs - fromMs) / info.stepMs) * info.stepMs;
  const length = Math.floor((range.endMs - startMs) / info.stepMs) + 1;
  const weights = meanWeights({ startMs, stepMs: info.stepMs, length, timeCell: timeCellOf(info) }, fromMs, toMs);
  return weights && { ...weights, startMs, stepMs: info.stepMs };
}

/** The instants the layer reads at the hour's start: temperature, dewpoint, wind. */
const INSTANTS = [ET_INPUT_VARIABLES.airTemperature, ET_INPUT_VARIABLES.dewpoint, ET_INPUT_VARIABLES.windSpeed];

/** Every hourly input the layer reads. */
const INPUTS = [...INSTANTS, SHORTWAVE];
