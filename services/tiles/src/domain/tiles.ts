/**
 * Tiles of frames (docs/interface.md §4; docs/decisions/0132-tile-rendering.md): which frame and
 * style a request names, whether its z/x/y exist, its validators and lifetime, and the PNG.
 */
import { isUuid } from '@fieldcast/ids';
import { createHash } from 'node:crypto';
import { InvalidRequestError, NotFoundError, UnavailableError } from '@fieldcast/kit';
import { nameKey, type Style } from '@fieldcast/schemas';
import {
  ERROR_RULES,
  type ErrorRun,
  firstFrameFound,
  type FrameIndex,
  forecastBoundaryMs,
  forecastGrid,
  frameErrorRun,
  type GridSource,
  maskAttributeValue,
  type ModelDef,
  type SyncedFrame,
  TILE_SIZE,
  servedWeatherOf,
  type VariableId,
  weatherVersion,
  type ZoomLevels,
} from '@fieldcast/weather';
import { productVisible } from './access.js';
import type { GrantLookup } from '@fieldcast/runtime';
import { NO_DATA, paint, painterOf } from './colorize.js';
import { coverageMask } from './coverage.js';
import { type FrameRef, frameMayChange, zoomLevelsOf } from './frames.js';
import { combineLayer, type LayerSampler, layerGrid, sampleLayer } from './layers.js';
import { encodePng } from './png.js';
import type { TileProducts } from './products.js';
import type { PngCache, SampleCache } from './sample-cache.js';
import { pixelCentres, type SampleMode, type TileAddress } from './sampling.js';
import { type DefaultStyles, type StyleRecord, styleView } from './styles.js';
import { warmTileDrawing } from './warm-up.js';

/** Bumped when the same frame, style and tile would be drawn differently: part of every ETag. */
const RENDERING_VERSION = '4';

const HOUR_MS = 3_600_000;
/** A frame of the past with a default style never changes (RFC 8246 immutable). */
const PAST_DEFAULT_STYLE = 'private, max-age=31536000, immutable';
/**
 * A contributed style may be replaced, and a grant of a restricted product revoked: such tiles are
 * kept five minutes, then revalidated by ETag (docs/decisions/0134-product-grants-published-to-the-tiles-area.md).
 */
const REVALIDATED = 'private, max-age=300';
/**
 * How long after its hour a catalog product's frame may still change where the weather served
 * takes synced stores: a synced source's analysis takes a run's first hours once the run is whole
 * (GFS 3.5 to 5 hours after its init, ECMWF 7 to 9), and those hours' frames then show it
 * (docs/decisions/0497-recent-frames-revalidated-while-synced-analyses-grow.md).
 */
const SYNCED_ANALYSIS_LAG_MS = 24 * HOUR_MS;

export interface StyleLookup {
  get(accountId: string, id: string): Promise<StyleRecord | null>;
  byName(accountId: string, name: string): Promise<StyleRecord | null>;
}

export interface TileRequest {
  accountId: string;
  frameId: string;
  tile: TileAddress;
  /** a style id or name; the product's default style when absent */
  style?: string | undefined;
}

/** What a tile request resolves to before anything is drawn. */
export interface ResolvedTile {
  frame: FrameRef;
  style: Style;
  tile: TileAddress;
  etag: string;
  cacheControl: string;
}

/** What a TileRenderer draws from. */
export interface TileRendererOptions {
  defaults: DefaultStyles;
  weather: GridSource;
  frames: FrameIndex;
  styles: StyleLookup;
  /** the platform's grants of restricted products, as the tiles area keeps them */
  grants: GrantLookup;
  /** sampled grid values between requests */
  cache: SampleCache;
  now: () => Date;
  /** encoded tiles by ETag; none keeps none */
  pngs?: PngCache | null;
  /** where a layer's values over a tile are computed: inline unless given (compute threads for cold low zooms) */
  sampler?: LayerSampler;
  /** the synced sources' products, whose frames are read from their own stores */
  products?: TileProducts;
  /**
   * the catalog's models: a product's forecast frame of run I is drawn as the run at I of the model
   * whose runs the product's are, with its error (docs/decisions/0496-product-runs-are-a-models-runs.md)
   */
  models?: readonly ModelDef[];
}

/** The weather a frame is drawn from: a synced frame's own store, else the weather served. */
const storeOf = (frame: FrameRef | SyncedFrame): GridSource | null => ('store' in frame ? frame.store : null);

export class TileRenderer {
  readonly zoomLevels: ZoomLevels;
  private readonly defaults: DefaultStyles;
  private readonly weather: GridSource;
  private readonly frames: FrameIndex;
  private readonly styles: StyleLookup;
  private readonly grants: GrantLookup;
  private readonly cache: SampleCache;
  private readonly now: () => Date;
  private readonly pngs: PngCache | null;
  private readonly sampler: LayerSampler;
  private readonly products: TileProducts | null;
  private readonly models: readonly ModelDef[];

  constructor(options: TileRendererOptions) {
    const weather = options.weather;
    this.defaults = options.defaults;
    this.weather = weather;
    this.frames = options.frames;
    this.styles = options.styles;
    this.grants = options.grants;
    this.cache = options.cache;
    this.now = options.now;
    this.pngs = options.pngs ?? null;
    this.products = options.products ?? null;
    this.models = options.models ?? [];
    this.sampler = options.sampler ?? { sample: (layer, t, tile, mode) => sampleLayer(weather, layer, t, tile, mode) };
    this.zoomLevels = zoomLevelsOf(Math.max(weather.grid.dLat, weather.grid.dLon));
  }

  /** Paints and encodes practice tiles with the default styles, so the first tile asked for is drawn by compiled code (warm-up.ts). */
  warmDrawing(): Promise<SampleMode[]> {
    return warmTileDrawing(this.defaults.byId.values());
  }

  /** The frame, style and tile a request names, with the answer's ETag and lifetime; throws the request's fault. */
  async resolve(request: TileRequest): Promise<ResolvedTile> {
    const id = request.frameId;
    const frame = await firstFrameFound<FrameRef>([this.frames.find(id, this.now().getTime()), this.products?.syncedFrame(id)]);
    if (!frame || !(await productVisible(this.grants, request.accountId, frame.product))) throw new NotFoundError('frame', id);
    const { z, x, y } = request.tile;
    const { minimum, maximum } = this.zoomLevels;
    if (z < minimum || z > maximum) {
      throw new InvalidRequestError('invalid_parameter', `Invalid path parameter: z`, [
        { path: 'z', message: `must be a zoom level of the frame, ${minimum} to ${maximum}` },
      ]);
    }
    const last = 2 ** z - 1;
    const outside = [x > last ? 'x' : null, y > last ? 'y' : null].filter((p): p is string => p !== null);
    if (outside.length) {
      throw new InvalidRequestError(
        'invalid_parameter',
        `Invalid path parameter${outside.length > 1 ? 's' : ''}: ${outside.join(', ')}`,
        outside.map((p) => ({ path: p, message: `must be a whole number from 0 to ${last} at zoom ${z}` })),
      );
    }
    const style = await this.style(request.accountId, frame, request.style);
    const nowMs = this.now().getTime();
    const boundary = forecastBoundaryMs(nowMs);
    const changing = frameMayChange(frame, boundary);
    const etag = this.etag(frame, style, request.tile, changing ? boundary : null);
    let cacheControl: string;
    if (changing) {
      // A frame with forecast values is redrawn by the next hour's run: keep it until then.
      cacheControl = `private, max-age=${Math.max(1, Math.ceil((boundary + HOUR_MS - nowMs) / 1000))}`;
    } else {
      const settled =
        storeOf(frame) !== null || !servedWeatherOf(this.weather).syncDir || frame.validMs <= boundary - SYNCED_ANALYSIS_LAG_MS;
      cacheControl = settled && style.isDefault && frame.product.access !== 'restricted' ? PAST_DEFAULT_STYLE : REVALIDATED;
    }
    return { frame, style, tile: request.tile, etag, cacheControl };
  }

  /** The PNG of a resolved tile: from the cache of encoded tiles by its ETag, else drawn. */
  render(resolved: ResolvedTile): Promise<Buffer> {
    return this.pngs ? this.pngs.get(resolved.etag, () => this.draw(resolved)) : this.draw(resolved);
  }

  /** Draws a resolved tile: samples its grid, paints it with the style, encodes the PNG. */
  async draw(resolved: ResolvedTile): Promise<Buffer> {
    const { frame, style, tile } = resolved;
    const product = frame.product;
    // A synced frame reads its run's (or the analysis') store, inline: a compute thread opens the served weather only.
    const own = storeOf(frame);
    const weather = own ?? this.weather;
    const sampler: LayerSampler = own ? { sample: (l, t, at, mode) => sampleLayer(own, l, t, at, mode) } : this.sampler;
    // A synced run's frame is its store's values; a catalog product's run adds its model's run's error.
    const run = own ? null : frameErrorRun(frame, this.models);
    const layer = layerGrid(weather, product, style.layerName);
    if (!layer) {
      throw new UnavailableError(
        'layer_not_drawable',
        `Layer ${style.layerName} of ${product.name} cannot be drawn as tiles by this server`,
      );
    }
    const painters = style.colorizers.map((c) =>
      painterOf(c, (name) => {
        const maskLayer = product.styleableLayers.find((l) => l.name === c.mask?.layerName);
        return maskLayer ? maskAttributeValue(maskLayer, name) : undefined;
      }),
    );
    const modes = [...new Set(style.colorizers.map((c) => c.defaultMode))];
    const byMode = new Map<SampleMode, Float32Array>();
    for (const mode of modes) {
      const whole = layer.whole;
      if (whole) {
        // A layer computed from its inputs at once takes the run's error on each input: kept per run.
        const ofRun = run && 'evapotranspiration' in whole ? { ...whole, run } : whole;
        const runKey = run ? `${run.model}@${run.initMs}` : 'analysis';
        const key = `${weatherVersion(weather)}|layer:${style.layerName}|${runKey}|${frame.validMs}|${tile.z}/${tile.x}/${tile.y}|${mode}`;
        byMode.set(mode, await this.cache.get(key, () => sampler.sample(ofRun, frame.validMs, tile, mode)));
        continue;
      }
      const samples = await Promise.all(layer.inputs.map((v) => this.forecast(weather, sampler, v, frame.validMs, tile, mode, run)));
      byMode.set(mode, combineLayer(layer, samples));
    }
    // One mask layer per style in practice; each colorizer's mask is read from its own layer.
    const maskNames = [...new Set(style.colorizers.flatMap((c) => (c.mask ? [c.mask.layerName] : [])))];
    let mask: Float32Array | null = null;
    if (maskNames.length > 1) {
      throw new UnavailableError(
        'layer_not_drawable',
        'A style whose colorizers mask with different layers cannot be drawn by this server',
      );
    }
    if (maskNames.length === 1) {
      const maskLayer = layerGrid(weather, product, maskNames[0]!);
      if (!maskLayer) throw new UnavailableError('layer_not_drawable', `Mask layer ${maskNames[0]} of ${product.name} cannot be read`);
      const samples = await Promise.all(
        maskLayer.inputs.map((v) => this.forecast(weather, sampler, v, frame.validMs, tile, 'discrete', run)),
      );
      mask = combineLayer(maskLayer, samples);
    }
    const rgba = paint(painters, TILE_SIZE * TILE_SIZE, (mode) => byMode.get(mode)!, mask, coverageMask(product, tile));
    return encodePng(rgba, TILE_SIZE, TILE_SIZE);
  }

  /**
   * A variable's values over a tile as run `run` forecasts them: the weather's samples (kept, the
   * same for every run) with the run's error at the pixel centres, computed for the whole tile on
   * its rows and columns (forecastGrid: the model area's time series at a pixel's centre is the
   * same value). `discrete` samples take the error at the pixel centre too.
   */
  private async forecast(
    weather: GridSource,
    sampler: LayerSampler,
    variable: string,
    timeMs: number,
    tile: TileAddress,
    mode: SampleMode,
    run: ErrorRun | null,
  ): Promise<Float32Array> {
    const rule = run ? (ERROR_RULES[variable as VariableId] ?? { kind: 'none' as const }) : { kind: 'none' as const };
    const values = await this.sample(weather, sampler, variable, timeMs, tile, mode);
    if (!run || rule.kind === 'none') return values;
    const temperature = rule.kind === 'depression' ? await this.sample(weather, sampler, 'air_temperature', timeMs, tile, mode) : undefined;
    const { lats, lons } = pixelCentres(tile);
    return forecastGrid(rule, run, timeMs, lats, lons, temperature ? { values, temperature } : { values }, NO_DATA);
  }

  /**
   * A variable's samples over a tile, kept under the version of the weather read (weatherVersion):
   * a synced store's id names its run (or the analysis as one registry left it), so a new run's
   * frame never finds an old run's samples, and the weather served moves with every reload.
   */
  private sample(
    weather: GridSource,
    sampler: LayerSampler,
    variable: string,
    timeMs: number,
    tile: TileAddress,
    mode: SampleMode,
  ): Promise<Float32Array> {
    const key = `${weatherVersion(weather)}|${variable}|${timeMs}|${tile.z}/${tile.x}/${tile.y}|${mode}`;
    return this.cache.get(key, () => sampler.sample({ variable: variable as VariableId }, timeMs, tile, mode));
  }

  /**
   * The style a request names (id or name, any case), among the product's defaults and the caller's
   * own; 404 otherwise. A reference of a UUID's form is an id when a style has it, else a name
   * (names may have that form too: docs/decisions/0394-tile-style-by-id-then-by-name.md).
   */
  private async style(accountId: string, frame: FrameRef, ref: string | undefined): Promise<Style> {
    const product = frame.product;
    const defaults = this.defaults.of(product);
    if (ref === undefined) return defaults[0]!;
    const byId = async () => {
      const builtIn = this.defaults.byId.get(ref.toLowerCase());
      return { builtIn, record: builtIn ? null : await this.styles.get(accountId, ref.toLowerCase()) };
    };
    const byName = async () => {
      const builtIn = this.defaults.byName.get(nameKey(ref));
      return { builtIn, record: builtIn ? null : await this.styles.byName(accountId, ref) };
    };
    let found = isUuid(ref) ? await byId() : undefined;
    if (!found?.builtIn && !found?.record) found = await byName();
    const { builtIn, record } = found;
    if (builtIn?.productId === product.id) return builtIn;
    if (record && record.productId === product.id) return styleView(record);
    if (builtIn) {
      // Another product's default style exists only for those who see that product (docs/interface.md §4).
      const owner = this.defaults.productOf(builtIn);
      if (!owner || !(await productVisible(this.grants, accountId, owner))) throw new NotFoundError('style', ref);
    }
    if (record || builtIn) {
      throw new InvalidRequestError('style_not_for_product', `Style ${ref} is a style of another product than ${product.name}`, [
        { path: 'style', message: `must be a style of ${product.name}` },
      ]);
    }
    throw new NotFoundError('style', ref);
  }

  private etag(frame: FrameRef, style: Style, tile: TileAddress, run: number | null): string {
    const hash = createHash('sha256')
      .update(
        JSON.stringify([
          RENDERING_VERSION,
          weatherVersion(storeOf(frame) ?? this.weather),
          frame.id,
          run,
          style.id,
          style.layerName,
          style.colorizers,
          tile.z,
          tile.x,
          tile.y,
        ]),
      )
      .digest('base64url');
    return `"${hash.slice(0, 32)}"`;
  }
}
