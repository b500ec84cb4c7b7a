// zod schemas of the transfer area's requests and records (docs/interface.md §9; spec 2.5, 4.9).
import { z } from 'zod';
import { Timestamp } from './common.js';
import { dateMs } from './growing-degree-days.js';

/** Spec 2.5: a data-transfer product. */
export const TransferProduct = z
  .object({
    name: z.string(),
    format: z.enum(['GeoTIFF', 'NetCDF']),
    /** relative path of the product's dataset list */
    datasets: z.string(),
  })
  .meta({ id: 'TransferProduct' });

export const TransferProductList = z.array(TransferProduct);

export const TransferDatasetVariable = z
  .object({
    /** the band description (GeoTIFF) or variable name (NetCDF) */
    name: z.string(),
    standardName: z.string().describe('CF standard name; empty when CF has none'),
    units: z.string().describe('UDUNITS units'),
    description: z.string(),
    cellMethods: z.string().describe('CF cell_methods; empty for instantaneous values'),
  })
  .meta({ id: 'TransferDatasetVariable' });

/** A dataset of a product (docs/interface.md §9: the specification does not show it). */
export const TransferDataset = z
  .object({
    name: z.string().describe('the file name'),
    product: z.string(),
    format: z.enum(['GeoTIFF', 'NetCDF']),
    validTime: Timestamp.nullable().optional().describe('the valid time, for a product of one step per file; null for a static field'),
    validTimes: z
      .array(Timestamp)
      .optional()
      .describe('the valid times the file holds, for a product of several steps per file, even when a day holds one'),
    variables: z.array(TransferDatasetVariable),
    bounds: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .describe(
        '[west, south, east, north], the outer edges of the cells within -180..180 and -90..90: cells centred on a pole end at it, and cells across the antimeridian have west greater than east, as RFC 7946 §5.2 states them ([149.5, s, -129.5, n] for cells from 149.5 E to 129.5 W)',
      ),
    resolution: z.number().describe('distance between cell centres, degrees'),
    width: z.number().int(),
    height: z.number().int(),
    size: z.number().int().optional().describe('bytes, once the file has been made'),
    checksum: z.string().optional().describe('sha256:<hex> of the file, once it has been made; also its ETag'),
    readyInSeconds: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        'beyond the spec, for a file not made yet: about how many seconds until it is, from the time this service measured making files (absent once made, or before anything has been measured)',
      ),
    mediaType: z.string(),
    downloadUrl: z.url().describe('works without credentials until downloadUrlExpires; the same path also takes HTTP Basic'),
    downloadUrlExpires: Timestamp,
  })
  .meta({ id: 'TransferDataset' });

export const TransferDatasetList = z.array(TransferDataset);

/** Product names of the catalog (lowercase letters, digits, ".", "_" and "-"). */
const productName = z.string().min(1).max(200);

export const TransferProductParams = z.object({ name: productName });

export const TransferDatasetParams = z.object({ name: productName, dataset: z.string().min(1).max(300) });

export const TransferDatasetsQuery = z.object({
  // One check, dateMs (a real calendar date in the form YYYY-MM-DD), so one message for any
  // value that is no date; the range is the domain's (date_out_of_range).
  date: z
    .string({ error: 'date must be given once, as a date YYYY-MM-DD' })
    .refine((d) => !Number.isNaN(dateMs(d)), { error: 'date must be a date YYYY-MM-DD, such as 2024-06-01' })
    .optional()
    .describe('YYYY-MM-DD, UTC; today by default; from 2015-01-01 to the end of the forecast'),
});

/** A signed link's parameters: all three or none (then HTTP Basic). */
export const TransferDownloadQuery = z.object({
  account: z.string().max(100).optional().describe("the signing account's id (signed links)"),
  expires: z.string().max(20).optional().describe('epoch seconds after which the link no longer works (signed links)'),
  signature: z.string().max(100).optional().describe('base64url HMAC-SHA256 of the link (signed links)'),
});
