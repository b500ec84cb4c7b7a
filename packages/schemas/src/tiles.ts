// zod schemas of the tiles area's requests and records (docs/interface.md §4).
import { z } from 'zod';
import { choiceError, countParam, cursorParam, Timestamp, Uuid, UuidInput } from './common.js';
import { text } from './text.js';

/** The colour forms a style accepts (spec 2.3), named in every refusal. */
export const COLOR_FORMS = '"#rrggbb" (six hexadecimal digits) or "rgba(r, g, b, a)" (r, g, b whole numbers 0-255, a a number 0-1)';

const HEX = /^#[0-9a-fA-F]{6}$/;
const RGBA = /^rgba\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d+(?:\.\d+)?|\.\d+)\s*\)$/;

/** A colour as a style writes it, checked to the letter of its form (channels 0-255, alpha 0-1). */
export function isStyleColor(value: string): boolean {
  if (HEX.test(value)) return true;
  const m = RGBA.exec(value);
  if (!m) return false;
  const [, r, g, b, a] = m;
  return [r, g, b].every((c) => Number(c) <= 255) && Number(a) <= 1;
}

export const StyleColor = z.string().refine(isStyleColor, { error: `must be a colour: ${COLOR_FORMS}` });

export const ColorStop = z.strictObject({
  value: z.number({ error: 'must be a finite number' }),
  color: StyleColor,
});

/** A mask: the colorizer paints only where the mask layer's value is one of these attributes (spec 2.3). */
export const StyleMask = z.strictObject({
  layerName: z.string().min(1, { error: 'must name a mask layer of the product' }),
  attributes: z
    .array(z.string().min(1, { error: 'must name an attribute of the mask layer' }))
    .min(1, { error: 'must name at least one attribute of the mask layer' })
    .max(100),
});

export const Colorizer = z
  .strictObject({
    mask: StyleMask.optional(),
    defaultColor: StyleColor,
    defaultMode: z.enum(['linear', 'discrete'], { error: 'must be "linear" or "discrete"' }),
    stops: z.array(ColorStop).min(1, { error: 'must hold at least one stop' }).max(1000),
  })
  .superRefine((c, ctx) => {
    // Stops are the breakpoints of one scale: each value above the one before (spec 2.3).
    for (let i = 1; i < c.stops.length; i++) {
      if (!(c.stops[i]!.value > c.stops[i - 1]!.value)) {
        ctx.addIssue({
          code: 'custom',
          path: ['stops', i, 'value'],
          message: `must be greater than the value of the stop before it (${c.stops[i - 1]!.value}): stop values are strictly ascending`,
        });
      }
    }
  });

/** The body of a style's creation and replacement (spec 2.3, 4.3). */
export const StyleInput = z.strictObject({
  name: text()
    .trim()
    .min(1, { error: 'must be a name of 1 to 100 characters' })
    .max(100, { error: 'must be a name of 1 to 100 characters' })
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { error: 'must not contain control characters' }),
  description: text().max(10_000).default(''),
  layerName: z.string().min(1, { error: 'must name a styleable layer of the product' }),
  colorizers: z.array(Colorizer).min(1, { error: 'must hold at least one colorizer' }).max(100),
});
export type StyleInput = z.output<typeof StyleInput>;

/**
 * The body of a style's replacement: the creation body, or the style as read with it edited
 * (RFC 9110 §9.3.4: PUT sends the resource's representation). The members the service sets, id,
 * isDefault and productId, may come along when they are the style's own; the service checks them.
 */
export const StyleReplacement = StyleInput.extend({
  id: UuidInput.optional(),
  isDefault: z.boolean().optional(),
  productId: UuidInput.optional(),
});
export type StyleReplacement = z.output<typeof StyleReplacement>;

/** A style as served (spec 2.3): a product's default or an account's contributed one. */
export const Style = z.object({
  id: Uuid,
  name: z.string(),
  description: z.string(),
  layerName: z.string(),
  colorizers: z.array(
    z.object({
      mask: z.object({ layerName: z.string(), attributes: z.array(z.string()) }).optional(),
      defaultColor: z.string(),
      defaultMode: z.enum(['linear', 'discrete']),
      stops: z.array(z.object({ value: z.number(), color: z.string() })),
    }),
  ),
  isDefault: z.boolean(),
  productId: Uuid,
});
export type Style = z.output<typeof Style>;

/**
 * A style's members in the order spec 2.3 lists them, at every level (colorizer, mask, stop), fresh
 * objects whatever order its source held them in (a body, jsonb's key order, the catalog). Every
 * representation of a style is JSON.stringify of this, so the POST and PUT answers, a read, the
 * list and a deletion's answer are the same bytes (docs/decisions/0417-one-representation-of-a-style.md).
 */
export function styleInSpecOrder(style: Style): Style {
  return {
    id: style.id,
    name: style.name,
    description: style.description,
    layerName: style.layerName,
    colorizers: style.colorizers.map((c) => ({
      ...(c.mask ? { mask: { layerName: c.mask.layerName, attributes: [...c.mask.attributes] } } : {}),
      defaultColor: c.defaultColor,
      defaultMode: c.defaultMode,
      stops: c.stops.map((stop) => ({ value: stop.value, color: stop.color })),
    })),
    isDefault: style.isDefault,
    productId: style.productId,
  };
}

/** A product named in a path by its id or its name (spec 4.3). */
export const ProductParams = z.object({
  product: z.string().min(1).max(200).meta({ description: 'the product id or name' }),
});

/** `/v2/styles/{id}.json` */
export const StyleParams = z.object({ id: UuidInput });

/** `/v2/frames/{frame}/tile/{z}/{x}/{y}.png`: ranges against the frame and zoom are checked by the service. */
export const TileParams = z.object({
  frame: UuidInput,
  z: z
    .string()
    // Any whole number is a zoom level; whether the frame has it is the service's check, which names the range.
    .regex(/^[0-9]{1,10}$/, { error: 'must be a whole zoom level' })
    .transform(Number),
  x: z
    .string()
    .regex(/^[0-9]{1,10}$/, { error: 'must be a whole number from 0 to 2^z - 1' })
    .transform(Number),
  y: z
    .string()
    .regex(/^[0-9]{1,10}$/, { error: 'must be a whole number from 0 to 2^z - 1' })
    .transform(Number),
});

export const TileQuery = z.object({
  style: z
    .string({ error: choiceError('style', 'a style id or name') })
    .min(1, { error: choiceError('style', 'a style id or name') })
    .max(200, { error: choiceError('style', 'a style id or name of at most 200 characters') })
    .optional()
    .meta({ description: 'a style id or name; else the product’s default style' }),
});

/** `limit` of a product's recent frames. */
export const FramesQuery = z.object({
  limit: countParam({
    digits: 4,
    max: 1000,
    description: 'most frames, newest first, 1 to 1000 (default 100)',
  }).optional(),
});

/** The page of a product's style list (docs/decisions/0061-bounded-lists.md). */
export const StyleListQuery = z.object({
  limit: countParam({
    digits: 4,
    max: 1000,
    description: 'most contributed styles in the answer, 1 to 1000 (default 1000); the default styles come first, on the first page',
  }).optional(),
  after: cursorParam({
    name: 'after',
    names: 'the id of a contributed style',
    description: 'the id of the last contributed style of the previous page (Link rel="next")',
  }).optional(),
});

/** A frame record (public record, platform area), as the platform area serves it. */
export const TileFrame = z.object({
  id: Uuid,
  validTime: Timestamp,
  runTime: Timestamp.nullable(),
  creationTime: Timestamp,
  expirationTime: Timestamp.nullable(),
  zoomLevels: z.object({ minimum: z.number().int(), native: z.number().int(), maximum: z.number().int() }),
  mediaTypes: z.array(z.string()),
  tileSize: z.number().int(),
  forecast: z.string().nullable(),
  product: z.string(),
});
export type TileFrame = z.output<typeof TileFrame>;
