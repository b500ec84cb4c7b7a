/**
 * `fieldcast ingest <file>`: a CF NetCDF (classic or NetCDF-4) or GeoTIFF file becomes a Zarr
 * store under the data dir and an entry in its catalog of stores (docs/architecture.md §6;
 * @fieldcast/weather's ingestFile does the work; docs/decisions/0016-ingest.md has the rules).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { IngestError, ingestFile, type IngestOptions } from '@fieldcast/weather';
import { UsageError } from './usage-error.js';

type Print = (line: string) => void;

export const INGEST_USAGE =
  'usage: fieldcast ingest <file> [--out DIR] [--catalog PATH] [--id ID] [--product NAME] [--overwrite]\n' +
  '       [--step-hours H]  the step between GeoTIFF bands, or of a NetCDF file with one time\n' +
  '       GeoTIFF only: [--start ISO_TIME] [--variable NAME] [--units U] [--standard-name S]';

/** Where ingested stores and their catalog live by default. */
export function ingestDefaults(dataDir: string): { outDir: string; catalogPath: string } {
  return { outDir: join(dataDir, 'stores'), catalogPath: join(dataDir, 'stores.yaml') };
}

export async function ingestCommand(args: string[], env: { FIELDCAST_DATA_DIR: string }, print: Print): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        catalog: { type: 'string' },
        id: { type: 'string' },
        product: { type: 'string' },
        overwrite: { type: 'boolean', default: false },
        start: { type: 'string' },
        'step-hours': { type: 'string' },
        variable: { type: 'string' },
        units: { type: 'string' },
        'standard-name': { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${INGEST_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(INGEST_USAGE);
  const defaults = ingestDefaults(env.FIELDCAST_DATA_DIR);
  const options: IngestOptions = {
    outDir: values.out ?? defaults.outDir,
    catalogPath: values.catalog ?? defaults.catalogPath,
    overwrite: values.overwrite,
    ...(values.id ? { id: values.id } : {}),
    ...(values.product ? { product: values.product } : {}),
  };
  const geotiff: NonNullable<IngestOptions['geotiff']> = {};
  if (values.start !== undefined) {
    const ms = Date.parse(values.start);
    if (!Number.isFinite(ms)) throw new UsageError(`--start ${values.start} is not an ISO 8601 time`);
    geotiff.startMs = ms;
  }
  if (values['step-hours'] !== undefined) {
    const h = Number(values['step-hours']);
    if (!(h >= 0)) throw new UsageError(`--step-hours ${values['step-hours']} is not a number of hours`);
    geotiff.stepMs = h * 3_600_000;
  }
  if (values.variable) geotiff.variable = values.variable;
  const attributes: Record<string, unknown> = {};
  if (values.units) attributes.units = values.units;
  if (values['standard-name']) attributes.standard_name = values['standard-name'];
  if (Object.keys(attributes).length > 0) geotiff.attributes = attributes;
  if (Object.keys(geotiff).length > 0) options.geotiff = geotiff;

  let result;
  try {
    result = await ingestFile(positionals[0]!, options);
  } catch (err) {
    // A file the ingest refuses (format, grid, calendar) is the caller's to fix, not a crash.
    if (err instanceof IngestError) throw new UsageError(err.message);
    throw err;
  }
  const { entry } = result;
  print(`Ingested ${result.format} ${entry.source}`);
  print(`  store    ${result.storePath} (id ${result.id})`);
  print(`  catalog  ${options.catalogPath}`);
  print(
    `  grid     ${entry.grid.nLat} x ${entry.grid.nLon}, lat ${entry.grid.lat0} step ${entry.grid.dLat}, lon ${entry.grid.lon0} step ${entry.grid.dLon}`,
  );
  if (entry.time) print(`  time     ${entry.time.start} .. ${entry.time.end}, step ${entry.time.stepMs / 3_600_000} h`);
  for (const v of entry.variables)
    print(`  variable ${v.name}${v.variable && v.variable !== v.name ? ` (${v.variable})` : ''} [${v.units}]`);
  for (const s of result.skipped) print(`  skipped  ${s.name}: ${s.reason}`);
}
