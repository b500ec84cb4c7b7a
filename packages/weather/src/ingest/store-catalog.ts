/**
 * The catalog file of ingested stores: a YAML document whose `stores` list names each Zarr
 * store `fieldcast ingest` produced, with its variables, grid and time range, so a service can
 * open them without scanning disks. Other top-level keys of the file (the product catalog's
 * overrides may share it) and comments are kept when an entry is added.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseDocument, YAMLSeq, isSeq } from 'yaml';
import { z } from 'zod';
import { writeWhole } from '../zarr/whole-files.js';
import { IngestError } from './errors.js';

export const IngestedStoreSchema = z.object({
  id: z.string().min(1),
  /** store directory, absolute */
  path: z.string().min(1),
  /** the file it was ingested from */
  source: z.string(),
  format: z.enum(['netcdf-classic', 'netcdf4', 'geotiff']),
  ingestedAt: z.string(),
  variables: z.array(
    z.object({
      name: z.string(),
      /** contract VariableId it serves, or null */
      variable: z.string().nullable(),
      standardName: z.string(),
      units: z.string(),
      cellMethods: z.string(),
    }),
  ),
  grid: z.object({
    lat0: z.number(),
    lon0: z.number(),
    dLat: z.number(),
    dLon: z.number(),
    nLat: z.number().int(),
    nLon: z.number().int(),
  }),
  time: z.object({ start: z.string(), end: z.string(), stepMs: z.number() }).nullable(),
});
export type IngestedStore = z.infer<typeof IngestedStoreSchema>;

export async function readIngestedStores(catalogPath: string): Promise<IngestedStore[]> {
  const text = await fs.readFile(catalogPath, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new IngestError(`${catalogPath}: ${doc.errors[0]!.message}`);
  const stores = (doc.toJS() as { stores?: unknown } | null)?.stores ?? [];
  const parsed = z.array(IngestedStoreSchema).safeParse(stores);
  if (!parsed.success) throw new IngestError(`${catalogPath}: stores list is invalid: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** Adds or replaces (same id) a store entry. */
export async function registerIngestedStore(catalogPath: string, entry: IngestedStore): Promise<void> {
  const text = await fs.readFile(catalogPath, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new IngestError(`${catalogPath}: ${doc.errors[0]!.message}`);
  if (doc.contents === null) doc.contents = doc.createNode({}) as never;
  let seq = doc.get('stores');
  if (!isSeq(seq)) {
    seq = new YAMLSeq();
    doc.set('stores', seq);
  }
  const list = seq as YAMLSeq;
  const node = doc.createNode(IngestedStoreSchema.parse(entry));
  const at = list.items.findIndex((item) => (item as { get?: (k: string) => unknown }).get?.('id') === entry.id);
  if (at >= 0) list.items[at] = node;
  else list.items.push(node);
  await fs.mkdir(path.dirname(path.resolve(catalogPath)), { recursive: true });
  await writeWhole(catalogPath, doc.toString());
}
