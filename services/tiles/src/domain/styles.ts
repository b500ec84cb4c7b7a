/**
 * Styles (spec 2.3, 4.3; docs/interface.md §4): a product's default styles from the catalog and
 * the styles accounts contribute. The rules a style's content must follow against its product
 * live here; the store keeps names unique.
 */
import { ConflictError, type FieldError, ValidationError } from '@fieldcast/kit';
import { nameKey, type Style, type StyleInput, styleInSpecOrder } from '@fieldcast/schemas';
import { SOURCES } from '@fieldcast/sync';
import {
  type Catalog,
  defaultStyles,
  type DefaultStyle,
  type ProductDef,
  recordAttribute,
  syncedDefaultStyles,
  possibleSyncedProducts,
} from '@fieldcast/weather';

/** A contributed style as the store holds it. */
export interface StyleRecord {
  id: string;
  accountId: string;
  productId: string;
  name: string;
  description: string;
  layerName: string;
  colorizers: StyleInput['colorizers'];
}

export function styleRecord(id: string, accountId: string, productId: string, input: StyleInput): StyleRecord {
  return {
    id,
    accountId,
    productId,
    name: input.name,
    description: input.description,
    layerName: input.layerName,
    colorizers: input.colorizers,
  };
}

export function styleView(record: StyleRecord): Style {
  return styleInSpecOrder({ ...record, isDefault: false });
}

/** The JSON text of a contributed style as every answer gives it; the store keeps it for the list. */
export function styleJson(record: StyleRecord): string {
  return JSON.stringify(styleView(record));
}

export function defaultStyleView(style: DefaultStyle): Style {
  return styleInSpecOrder(style);
}

/** Mask layers of a product: its styleable layers with named attributes (spec 2.4). */
function maskLayer(product: ProductDef, name: string) {
  return product.styleableLayers.find((l) => l.name === name && l.attributes.length > 0);
}

/**
 * The faults of a style's content against its product (spec 4.3): its layer must be one of the
 * product's styleable layers, each mask must name a mask layer of the product and attributes of
 * that layer (with a space, as the product record writes them, or an underscore, as style masks
 * do). Each fault 422 `invalid_style` with its path; nothing is stored.
 */
export function checkStyleAgainstProduct(product: ProductDef, input: StyleInput): void {
  const errors: FieldError[] = [];
  const layers = product.styleableLayers.map((l) => l.name);
  if (!layers.includes(input.layerName)) {
    errors.push({ path: 'layerName', message: `must be a styleable layer of ${product.name}: ${layers.join(', ')}` });
  }
  const masks = product.styleableLayers.filter((l) => l.attributes.length > 0).map((l) => l.name);
  input.colorizers.forEach((c, i) => {
    if (!c.mask) return;
    const layer = maskLayer(product, c.mask.layerName);
    if (!layer) {
      errors.push({
        path: `colorizers.${i}.mask.layerName`,
        message: masks.length
          ? `must be a mask layer of ${product.name}: ${masks.join(', ')}`
          : `${product.name} has no mask layer, so its styles cannot have masks`,
      });
      return;
    }
    c.mask.attributes.forEach((a, k) => {
      if (!recordAttribute(layer, a)) {
        errors.push({
          path: `colorizers.${i}.mask.attributes.${k}`,
          message: `must be an attribute of ${layer.name}: ${layer.attributes.map((x) => x.name).join(', ')} (a space may be written as "_")`,
        });
      }
    });
  });
  if (errors.length) throw new ValidationError('invalid_style', 'The style does not fit its product', errors);
}

/**
 * Refusal of a taken name; never says whose contributed style holds it (spec 4.3). A default
 * style's is said to be one, since defaults are public and one may not be listed yet (a synced
 * source's, docs/decisions/0405-synced-default-style-names-held-from-the-start.md).
 */
export function nameTaken(name: string, holder: 'contributed' | 'default' = 'contributed'): ConflictError {
  const whose = holder === 'contributed' ? 'taken' : "the name of a product's default style (a synced source's products included)";
  return new ConflictError(
    'style_name_taken',
    `The style name "${name}" is ${whose}; names are unique among all styles, default styles included, in any case: choose another`,
  );
}

/**
 * The default styles of every product, derived once (their ids are UUID v5, a SHA-1 each): by
 * product id, by style id, and by name key (names every account finds taken).
 */
export class DefaultStyles {
  readonly byProduct = new Map<string, Style[]>();
  readonly byId = new Map<string, Style>();
  readonly byName = new Map<string, Style>();
  /** each product's defaults as JSON text, as a list serves them */
  readonly jsonByProduct = new Map<string, string>();
  private readonly products = new Map<string, ProductDef>();
  /**
   * Name keys of the default styles every synced source's products can have, held from the start
   * though such a product's defaults are derived only when it is first named: so no contributed
   * style takes one first, in this process or another
   * (docs/decisions/0405-synced-default-style-names-held-from-the-start.md).
   */
  private readonly syncedNames = new Set<string>();

  /** `syncedFrom`: the catalog products synced sources make products of (the whole catalog, served or not). */
  constructor(catalog: Catalog, syncedFrom: readonly ProductDef[] = catalog.products()) {
    for (const p of catalog.products()) this.add(p);
    // every source the sync knows and every product it may make, whichever variables its runs turn out to hold
    for (const { source, base } of possibleSyncedProducts(Object.keys(SOURCES), syncedFrom))
      for (const style of syncedDefaultStyles(source, base)) this.syncedNames.add(nameKey(style.name));
  }

  /** Whether a default style holds the name, or a synced source's product's default style will: no contributed style may take it. */
  holdsName(name: string): boolean {
    const key = nameKey(name);
    return this.byName.has(key) || this.syncedNames.has(key);
  }

  private add(p: ProductDef): Style[] {
    const styles = defaultStyles(p).map(defaultStyleView);
    this.products.set(p.id, p);
    this.byProduct.set(p.id, styles);
    this.jsonByProduct.set(p.id, styles.map((s) => JSON.stringify(s)).join(','));
    for (const s of styles) {
      this.byId.set(s.id, s);
      this.byName.set(nameKey(s.name), s);
    }
    return styles;
  }

  /** The product a default style belongs to. */
  productOf(style: Style): ProductDef | undefined {
    return this.products.get(style.productId);
  }

  /** The product's default styles; a product made after start (a synced source's) has them derived when first named. */
  of(product: ProductDef): Style[] {
    return this.byProduct.get(product.id) ?? this.add(product);
  }
}
