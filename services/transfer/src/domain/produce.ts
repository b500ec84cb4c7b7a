/**
 * Makes a dataset's file from the weather: the layout the writers take, the rows they read, and
 * the writer of the product's format. The bytes depend only on the dataset and the weather's
 * values (no wall-clock time in them), so every replica makes the same file, with the same
 * checksum and ETag.
 */
import { open } from 'node:fs/promises';
import type { GridSource, VariableId } from '@fieldcast/weather';
import { writeGeoTiff } from '../formats/geotiff.js';
import { writeNetcdf } from '../formats/netcdf.js';
import type { RasterLayout, RasterRows } from '../formats/raster.js';
import type { Dataset } from './datasets.js';
import { gridRows } from './grid-rows.js';

/**
 * The height above the ground of the variables measured at one (the GridSource variables: 2 m air
 * and dewpoint temperature, and wind speed at 2 m, the synced runs' 10 m wind brought down to it),
 * which CF states as a scalar height coordinate (CF 1.11 §6.1.1; its standard name table's
 * air_temperature).
 */
const HEIGHT_M: Partial<Record<VariableId, number>> = {
  air_temperature: 2,
  air_temperature_daily_max: 2,
  air_temperature_daily_min: 2,
  dew_point_temperature: 2,
  wind_speed: 2,
};

/** Title, source and history, the variables with their CF names, and the grid. */
export function layoutOf(dataset: Dataset, source: GridSource): RasterLayout {
  const { def, variables, grid } = dataset.product;
  const when = dataset.startMs === null ? '' : `; this file valid ${new Date(dataset.startMs).toISOString().replace('.000Z', 'Z')}`;
  const synthetic = source.label === 'synthetic' ? ' (a synthetic demo world, not observations)' : '';
  return {
    lats: grid.lats,
    lons: grid.lons,
    resolution: grid.resolution,
    bounds: grid.bounds,
    latEdges: grid.latEdges,
    lonEdges: grid.lonEdges,
    times: dataset.times,
    stepMs: dataset.product.stepMs,
    variables: variables.map((v) => ({
      name: v.id,
      standardName: v.standardName,
      units: v.units,
      longName: v.description,
      cellMethods: v.cellMethods,
      ...(HEIGHT_M[v.id] !== undefined ? { heightM: HEIGHT_M[v.id] } : {}),
    })),
    title: `${def.description}${when}`,
    source: `Fieldcast weather source ${source.id}${synthetic}`,
    history: `Written by the Fieldcast transfer area as ${dataset.name} from the weather source ${source.id}, each cell the value of the source's grid cell nearest its centre`,
  };
}

/** The rows of the dataset's grid from the weather, as its writer reads them. */
function rowsOf(dataset: Dataset, source: GridSource): RasterRows {
  const ids = dataset.product.variables.map((v) => v.id);
  const startMs = dataset.startMs ?? 0;
  const range = { startMs, endMs: dataset.times.length > 0 ? dataset.times[dataset.times.length - 1]! : startMs };
  return gridRows(source, ids, dataset.product.grid, range, Math.max(1, dataset.times.length));
}

/** The rows, telling `progress` the share of them handed to the writer so far. */
async function* counted(rows: RasterRows, total: number, progress: (done: number) => void): RasterRows {
  let done = 0;
  for await (const row of rows) {
    yield row;
    progress(++done / total);
  }
}

/**
 * Writes the dataset's file at `path` (created or emptied); returns its size in bytes. `progress`
 * hears the share of rows written as they go, for the list's estimate of when the file is ready.
 */
export async function produceDatasetFile(
  dataset: Dataset,
  source: GridSource,
  path: string,
  progress: (done: number) => void = () => undefined,
): Promise<number> {
  const layout = layoutOf(dataset, source);
  const rows = counted(rowsOf(dataset, source), dataset.product.grid.lats.length, progress);
  // NetCDF-4 is written by the HDF5 library, which opens the file itself.
  if (dataset.product.def.format === 'NetCDF') return writeNetcdf(layout, rows, path);
  const handle = await open(path, 'w');
  try {
    return await writeGeoTiff(layout, rows, {
      write: async (bytes, position) => {
        let done = 0;
        while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
      },
    });
  } finally {
    await handle.close();
  }
}
