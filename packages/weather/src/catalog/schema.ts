/**
 * zod schemas of the catalog: products (spec 2.4) with their styleable layers and default styles
 * (spec 2.3), models with their variables and run schedule (public record, model area), and
 * data-transfer products (spec 2.5). The code-defined defaults and a YAML override are both
 * validated with these at load, so a bad override fails at start-up, not at the first request.
 */
import { UUID_PATTERN } from '@fieldcast/ids';
import { z } from 'zod';
import { tidyDegrees as tidy, type VariableId } from '../grid/grid-source.js';
import { SYNTHETIC_VARIABLES } from '../synthetic/variables.js';

const VARIABLE_IDS = SYNTHETIC_VARIABLES.map((v) => v.id) as [VariableId, ...VariableId[]];
export const variableIdSchema = z.enum(VARIABLE_IDS);

const uuid = z.string().regex(UUID_PATTERN, 'must be a UUID');
/** Names are used in URL paths in place of ids (spec 4.3, 4.6, 4.9). */
const name = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" and "-" only');
const isoInstant = z
  .string()
  .refine((s) => /Z$/.test(s) && Number.isFinite(Date.parse(s)), 'must be an ISO 8601 UTC timestamp ending in Z');

/** spec 2.3: rgba(<r>, <g>, <b>, <a>) or #rrggbb. */
export const colorSchema = z
  .string()
  .regex(
    /^(#[0-9a-fA-F]{6}|rgba\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*(0|1|0?\.\d+|1\.0+)\s*\))$/,
    'colour must be #rrggbb or rgba(r, g, b, a)',
  );

export const colorizerSchema = z.object({
  mask: z.object({ layerName: z.string().min(1), attributes: z.array(z.string().min(1)).min(1) }).optional(),
  defaultColor: colorSchema,
  defaultMode: z.enum(['linear', 'discrete']),
  stops: z.array(z.object({ value: z.number(), color: colorSchema })).min(1),
});

export const unitSchema = z.object({ description: z.string(), label: z.string() });

export const styleableLayerSchema = z.object({
  name: z.string().min(1),
  type: z.literal('raster'),
  unit: unitSchema.nullable(),
  attributes: z.array(z.object({ name: z.string().min(1), value: z.number().int(), unit: z.null() })),
});

/** A default style as written in the catalog; id, isDefault and productId are derived. */
export const styleDefSchema = z.object({
  name: name,
  description: z.string(),
  layerName: z.string().min(1),
  colorizers: z.array(colorizerSchema).min(1),
});

/** A WGS84 position, [longitude, latitude] (spec 2: GeoJSON order). */
const position = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);

/**
 * A ring of a product's coverage. Every area reads a coverage in the plane, each edge the short
 * way between its ends, so an edge spanning more than 180 degrees of longitude would cover the
 * rest of the world instead of the strip across the antimeridian it was meant for: such a
 * coverage is cut at 180 into polygons of the MultiPolygon (RFC 7946 section 3.1.9), as fields are
 * (docs/decisions/0035-antimeridian.md). An edge from -180 to 180 is the whole band, as the
 * globe's is (docs/decisions/0398-catalog-bounds-do-not-wrap.md).
 */
const coverageRing = z
  .array(position)
  .min(4)
  .superRefine((ring, ctx) => {
    for (let i = 1; i < ring.length; i++) {
      const [a, b] = [ring[i - 1]!, ring[i]!];
      const span = Math.abs(b[0] - a[0]);
      if (span <= 180 || span === 360) continue;
      ctx.addIssue({
        code: 'custom',
        path: [i],
        message: `the edge from [${a.join(', ')}] to [${b.join(', ')}] spans ${span} degrees of longitude and would be read the long way round: a coverage crossing the antimeridian is cut at 180 into polygons of the MultiPolygon (RFC 7946 section 3.1.9)`,
      });
    }
  });

/** When a product's forecast runs start, are published and expire (docs/decisions/0120-product-frames-and-forecast-runs.md). */
export const forecastRunScheduleSchema = z.object({
  /** hours between runs; runs start at 00Z plus multiples of this */
  everyHours: z.number().int().positive(),
  /** a run's frames are all published (the run completed) this long after its init time */
  publishDelayMinutes: z.number().int().nonnegative(),
  /** a run and its frames expire this long after its init time */
  retentionHours: z.number().int().positive(),
});

export const productDefSchema = z.object({
  id: uuid,
  name: name,
  description: z.string(),
  contentType: z.string().min(1),
  source: z.string().min(1),
  /** the gridded variable behind the frames; null for a derived product computed by its area */
  variable: variableIdSchema.nullable(),
  aggregationPeriodInMinutes: z.number().int().nonnegative(),
  /** time between frames, minutes; 0 for a static product */
  cadenceMinutes: z.number().int().nonnegative(),
  /** startTime rule: frames from this instant */
  startTime: isoInstant,
  /** endTime rule: the forecast boundary (current hour) plus this many hours, floored to the cadence */
  horizonHours: z.number().int().nonnegative(),
  coverage: z.object({
    type: z.literal('Feature'),
    properties: z.record(z.string(), z.unknown()).nullable(),
    geometry: z.object({
      type: z.literal('MultiPolygon'),
      coordinates: z.array(z.array(coverageRing).min(1)).min(1),
    }),
  }),
  /** whether the record links a frame list (false gives frames: null) */
  hasFrames: z.boolean(),
  /** whether the record links a forecast list (false gives forecasts: null) */
  hasForecasts: z.boolean(),
  /**
   * the schedule of the product's forecast runs (docs/decisions/0120-product-frames-and-forecast-runs.md);
   * absent: DEFAULT_FORECAST_RUNS. Read only when hasForecasts.
   */
  forecastRuns: forecastRunScheduleSchema.optional(),
  /**
   * who sees the product (spec 5: "the product list contains only products the account is
   * authorized for"): every account (public, the default) or only accounts granted it
   * (docs/decisions/0121-product-access.md)
   */
  access: z.enum(['public', 'restricted']).optional(),
  styleableLayers: z.array(styleableLayerSchema).min(1),
  defaultStyles: z.array(styleDefSchema).min(1),
});

export const modelVariableSchema = z.object({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'camelCase variable name'),
  description: z.string(),
  unit: unitSchema,
  variable: variableIdSchema,
});

export const modelDefSchema = z.object({
  id: uuid,
  name: name,
  description: z.string(),
  source: z.string().min(1),
  /** hours between runs; runs start at 00Z plus multiples of this */
  runEveryHours: z.number().int().positive(),
  /** last lead time, hours */
  horizonHours: z.number().int().positive(),
  /** time between valid times, hours */
  stepHours: z.number().int().positive(),
  /** a run is published (COMPLETE) this long after its init time */
  publishDelayMinutes: z.number().int().nonnegative(),
  /** a run expires (EXPIRED) this long after its init time */
  retentionHours: z.number().int().positive(),
  variables: z.array(modelVariableSchema).min(1),
});

/**
 * A transfer product's bounds, west below east and south below north. A file's grid runs from
 * west eastward and from north southward (docs/decisions/0162-dataset-grids-and-names.md), so a
 * west past east, a bbox meant to cross the antimeridian, would give a grid of one column; such a
 * product is written as two, one each side of 180 (docs/decisions/0398-catalog-bounds-do-not-wrap.md).
 */
const transferBBox = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90)])
  .superRefine(([west, south, east, north], ctx) => {
    const at = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (west > east)
      at(
        `west (${west}) is east of east (${east}): a bbox crossing the antimeridian is not served; write two products, [${west}, ${south}, 180, ${north}] and [-180, ${south}, ${east}, ${north}]`,
      );
    if (west === east) at(`west and east are both ${west}: the bbox has no width`);
    if (south > north) at(`south (${south}) is north of north (${north}): write [west, south, east, north]`);
    if (south === north) at(`south and north are both ${south}: the bbox has no height`);
  });

/** A transfer product's bbox and resolution when its definition leaves them out. */
export const TRANSFER_DEFAULT_BBOX: [number, number, number, number] = [-180, -90, 180, 90];
export const TRANSFER_DEFAULT_RESOLUTION = 0.25;

/**
 * How far a side may be from whole cells, degrees: the binary noise of decimal steps (tenths are
 * not exact in binary, 1.3 - 0.2 is not 11 times 0.1), as the dataset grid rounds it.
 */
const SIDE_TOLERANCE = 1e-9;

/**
 * The side from `anchor` toward `limit` of whole cells nearest to the one ending at `edge`, as
 * [anchor, edge]: at least one cell and never past `limit` (the anchor moves back from the limit
 * only when not one cell fits beside it).
 */
function wholeCells(anchor: number, edge: number, resolution: number, limit: number): [number, number] {
  const way = Math.sign(limit - anchor);
  const room = Math.floor(Math.abs(limit - anchor) / resolution + SIDE_TOLERANCE);
  if (room < 1) return [tidy(limit - way * resolution), limit];
  const cells = Math.min(room, Math.max(1, Math.round(Math.abs(edge - anchor) / resolution)));
  return [anchor, tidy(anchor + way * cells * resolution)];
}

export const transferProductDefSchema = z
  .object({
    name: name,
    description: z.string(),
    format: z.enum(['GeoTIFF', 'NetCDF']),
    variable: variableIdSchema,
    /** one dataset per this many minutes (1440: one per day; 0: a single static dataset) */
    cadenceMinutes: z.number().int().nonnegative(),
    /** variables each dataset carries after `variable` (GeoTIFF bands, NetCDF data variables); none by default */
    additionalVariables: z.array(variableIdSchema).optional(),
    /** [west, south, east, north], the outer edges of the cells, degrees (whole multiples of the resolution apart); the globe by default */
    bbox: transferBBox.optional(),
    /** the distance between cell centres, degrees; 0.25 by default */
    resolution: z.number().positive().max(10).optional(),
  })
  .superRefine((def, ctx) => {
    // A dataset's grid is whole cells from west eastward and from north southward
    // (docs/decisions/0162-dataset-grids-and-names.md): sides of part of a cell would be moved,
    // and the files would cover other bounds than the catalog says.
    const bbox = def.bbox ?? TRANSFER_DEFAULT_BBOX;
    const resolution = def.resolution ?? TRANSFER_DEFAULT_RESOLUTION;
    const [west, south, east, north] = bbox;
    const whole = (side: number) => {
      const cells = Math.round(side / resolution);
      return cells >= 1 && Math.abs(side - cells * resolution) <= SIDE_TOLERANCE;
    };
    if (whole(east - west) && whole(north - south)) return;
    const [w, e] = wholeCells(west, east, resolution, 180);
    const [n, s] = wholeCells(north, south, resolution, -90);
    const which = def.bbox ? 'the bbox' : 'the bbox (the globe by default)';
    ctx.addIssue({
      code: 'custom',
      path: ['bbox'],
      message: `${which} [${bbox.join(', ')}] is not whole cells of the resolution ${resolution} wide and high; the nearest bbox that is, keeping west and north as a dataset's grid does: [${[w, s, e, n].join(', ')}]`,
    });
  });

export type Colorizer = z.infer<typeof colorizerSchema>;
export type StyleableLayer = z.infer<typeof styleableLayerSchema>;
export type ProductDef = z.infer<typeof productDefSchema> & {
  /**
   * The id of the catalog product whose grant opens this one when it is restricted; absent: its
   * own. Set on a synced source's products only, never read from a catalog
   * (docs/decisions/0408-synced-products-granted-with-their-catalog-product.md).
   */
  grantedWith?: string;
};
export type ForecastRunSchedule = z.infer<typeof forecastRunScheduleSchema>;
export type ModelVariable = z.infer<typeof modelVariableSchema>;
export type ModelDef = z.infer<typeof modelDefSchema>;
export type TransferProductDef = z.infer<typeof transferProductDefSchema>;

/**
 * The YAML override: entries whose name matches a default are merged over it field by field
 * (top-level fields replaced whole); other entries are new and must be complete (their id may be
 * left out: it is derived from the name). `remove` drops defaults by name.
 */
export const catalogOverrideSchema = z
  .object({
    products: z.array(z.object({ name: name }).loose()).optional(),
    models: z.array(z.object({ name: name }).loose()).optional(),
    transferProducts: z.array(z.object({ name: name }).loose()).optional(),
    remove: z
      .object({
        products: z.array(z.string()).optional(),
        models: z.array(z.string()).optional(),
        transferProducts: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type CatalogOverride = z.infer<typeof catalogOverrideSchema>;
