/**
 * The grid behind each styleable layer a tile can show: a variable of the weather source, or a
 * value derived pixel by pixel from variables sampled at the same pixel centres, or the reference
 * evapotranspiration, computed from its inputs at each pixel centre (docs/decisions/0132-tile-rendering.md).
 */
import { averageDegreeDays, relativeHumidity } from '@fieldcast/science';
import type { ErrorRun, GridSource, ProductDef, VariableId } from '@fieldcast/weather';
import { NO_DATA } from './colorize.js';
import { evapotranspirationReadable, evapotranspirationReader } from './evapotranspiration.js';
import { type SampleMode, sampleTile, sampleTileWith, type TileAddress } from './sampling.js';

export interface LayerGrid {
  /** the variables read, sampled alike */
  inputs: VariableId[];
  /** the layer's value from the inputs' values at one pixel */
  combine: ((values: number[]) => number) | null;
  /** a layer sampled as a whole from inputs of its own instead (inputs then empty): evapotranspiration */
  whole?: SampledLayer;
}

/**
 * What a tile samples: one variable of the grid, or the evapotranspiration computed from its
 * inputs, with `run` those of a forecast run (each with the run's error, evapotranspiration.ts).
 */
export type SampledLayer = { variable: VariableId } | { evapotranspiration: true; run?: ErrorRun };

/** Computes a layer's values at every pixel centre of a tile: inline, or in a compute thread (sample-compute.ts). */
export interface LayerSampler {
  sample(layer: SampledLayer, timeMs: number, tile: TileAddress, mode: SampleMode): Promise<Float32Array>;
}

/** The values of a layer at every pixel centre of a tile (sampling.ts), on the thread that calls it. */
export function sampleLayer(
  source: GridSource,
  layer: SampledLayer,
  timeMs: number,
  tile: TileAddress,
  mode: SampleMode,
): Promise<Float32Array> {
  if ('variable' in layer) return sampleTile(source, layer.variable, timeMs, tile, mode);
  return sampleTileWith(source.grid, tile, mode, evapotranspirationReader(source, timeMs, mode, layer.run));
}

/** The growing-degree-days product's base, °C (as its description in the catalog says). */
const GDD_BASE_C = 10;

/**
 * Layers computed from others with the science package's functions, as the platform area's
 * datapoints compute them: relative humidity from temperature and dewpoint (Bolton 1980); daily
 * degree days by the average method (McMaster and Wilhelm 1997).
 */
const DERIVED: Record<string, LayerGrid> = {
  relative_humidity: {
    inputs: ['air_temperature', 'dew_point_temperature'],
    combine: ([t, td]) => relativeHumidity(t!, td!),
  },
  growing_degree_days: {
    inputs: ['air_temperature_daily_max', 'air_temperature_daily_min'],
    combine: ([tmax, tmin]) => averageDegreeDays(tmax!, tmin!, GDD_BASE_C),
  },
};

/** How a product's layer is read from the source; undefined when this area cannot draw it. */
export function layerGrid(source: GridSource, product: ProductDef, layerName: string): LayerGrid | undefined {
  const variables = new Set(source.variables().map((v) => v.id as string));
  if (variables.has(layerName)) return { inputs: [layerName as VariableId], combine: null };
  const derived = DERIVED[layerName];
  if (derived && derived.inputs.every((v) => variables.has(v))) return derived;
  if (layerName === 'evapotranspiration' && evapotranspirationReadable(source)) {
    return { inputs: [], combine: null, whole: { evapotranspiration: true } };
  }
  // A product's only layer is its variable, whatever the layer is called.
  if (product.variable && product.styleableLayers.length === 1 && product.styleableLayers[0]!.name === layerName) {
    return { inputs: [product.variable], combine: null };
  }
  return undefined;
}

/** The layer's values from its inputs' samples; NO_DATA where any input has none. */
export function combineLayer(layer: LayerGrid, samples: Float32Array[]): Float32Array {
  if (!layer.combine) return samples[0]!;
  const out = new Float32Array(samples[0]!.length);
  const values: number[] = new Array<number>(samples.length);
  for (let i = 0; i < out.length; i++) {
    let missing = false;
    for (let k = 0; k < samples.length; k++) {
      const v = samples[k]![i]!;
      if (v === NO_DATA) missing = true;
      values[k] = v;
    }
    out[i] = missing ? NO_DATA : layer.combine(values);
  }
  return out;
}
