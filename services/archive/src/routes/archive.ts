import {
  anyRangeHolds,
  Api,
  clientAddress,
  expressPath,
  MethodNotAllowedError,
  NotFoundError,
  problemOf,
  recordFault,
  UnauthorizedError,
  type AddressRange,
  type OperationContext,
  type Pipeline,
} from '@fieldcast/kit';
import {
  archiveBody,
  ArchiveError,
  archiveFeatureCollection,
  ArchivePath,
  ArchivePathWithDate,
  archiveQueryParameters,
} from '@fieldcast/schemas';
import { answer, type ArchiveAnswer } from '../domain/answer.js';
import type { SevereEventBlocks } from '../domain/event-blocks.js';
import type { IngestedReportSource } from '../domain/ingested-reports.js';
import { parseArchiveQuery } from '../domain/query.js';
import { ARCHIVE_TYPES, SERVED_MAJOR, type ArchiveType } from '../domain/types.js';
import { failureOf, type ArchiveFailure } from '../formats/failure.js';
import { answerGeoJson, answerJson, failureJson } from '../formats/json.js';
import { answerKml, failureKml } from '../formats/kml.js';
import {
  GEOJSON_MEDIA_TYPE,
  JSON_ANSWER,
  KML_MEDIA_TYPE,
  kmlVendorType,
  negotiateFormat,
  splitSuffix,
  SUFFIXES,
  type Negotiated,
} from '../formats/negotiate.js';
import { answerXml, failureXml } from '../formats/xml.js';
import type { ArchiveUserStore } from '../store.js';

export interface ArchiveRouteDeps {
  users: ArchiveUserStore;
  blocks: SevereEventBlocks;
  reports: IngestedReportSource;
  trustedProxies: readonly AddressRange[];
  vendor: string;
  now: () => Date;
}

// Express's types as the kit hands them over (the archive mounts its own routes and imports no HTTP framework).
type Router = Parameters<Api['mount']>[0];
type Request = OperationContext<unknown, unknown, unknown>['req'];
type Response = OperationContext<unknown, unknown, unknown>['res'];

/** One message for every refused credential, so a caller learns nothing of which part was wrong (docs/interface.md §11). */
const REFUSED = new UnauthorizedError('The user name, token or calling address is not accepted for this type');

const RENDER_ANSWER = { json: answerJson, xml: answerXml, kml: answerKml };
const RENDER_FAILURE = { json: failureJson, xml: failureXml, kml: failureKml };

/**
 * Every archive answer, success or failure, in every format: its URL holds the caller's token,
 * so no cache on the way may keep it (docs/interface.md §11; RFC 9111 section 5.2.2.5).
 */
const CACHE_CONTROL = 'private, no-store';

/** The methods of every archive resource, as Allow lists them (RFC 9110 sections 9.3.7 and 15.5.6). */
const ALLOWED = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The archive's operations (docs/interface.md §11) on the kit's Api, so they are documented in
 * /openapi.json like every area's; mounted by the archive itself, since it negotiates its own
 * formats (not the vendor JSON type), authenticates by `u`, `t` and the caller's address (not
 * HTTP Basic) and answers failures in the format asked for (not problem+json).
 */
class ArchiveApi extends Api {
  constructor(private readonly deps: ArchiveRouteDeps) {
    super();
  }

  override mount(router: Router, _pipeline: Pipeline): void {
    for (const op of this.operations) {
      const type = op.path.split('/')[2] as ArchiveType;
      router.get(expressPath(op.path), (req: Request, res: Response) => {
        res.locals.route = op.path;
        void this.serve(type, req, res);
      });
    }
    // Another method on a resource the archive has: 405 naming the methods it takes (RFC 9110
    // section 15.5.6), as in every area (docs/interface.md §1), not a 404 saying it is not there.
    for (const op of this.operations) {
      router.all(expressPath(op.path), (req: Request, res: Response) => {
        res.locals.route = op.path;
        // OPTIONS is answered before the archive's routes, with the same Allow (packages/kit resourceOptions).
        const refused = new MethodNotAllowedError(ALLOWED, `${req.method} is not allowed on ${req.path}; it takes ${ALLOWED.join(', ')}`);
        this.failWith(res, this.formatOf(req) ?? JSON_ANSWER, refused);
      });
    }
    // Any other path under a version: another major (404 naming the served one), or an unknown type.
    router.use((req: Request, res: Response, next: () => void) => {
      // the version in any case, as Express matches the routes' words (docs/decisions/0406-archive-path-words-in-any-case.md)
      const m = /^\/(v\d+)(\/|$)/i.exec(req.path);
      if (!m) return next();
      res.locals.route = '/{version}/*';
      const format = this.formatOf(req) ?? JSON_ANSWER;
      const message =
        m[1]!.toLowerCase() === SERVED_MAJOR
          ? `No archive resource at ${req.path}; the types are ${ARCHIVE_TYPES.join(', ')}: /${SERVED_MAJOR}/{type}/{summary|latest|history}/{location}[/{date}]`
          : `API version ${m[1]} is not served; this archive serves /${SERVED_MAJOR} (apiVersion 2.x.y)`;
      this.fail(res, format, failureOf(404, 'route_does_not_exist', message));
    });
    router.use(this.pathFailure);
  }

  /** A failure raised before a route's handler (a path segment that is not UTF-8 percent-encoding): under a version, told in the archive's formats. */
  private readonly pathFailure = (err: unknown, req: Request, res: Response, next: (err?: unknown) => void): void => {
    if (!/^\/v\d+(\/|$)/i.test(req.path)) return next(err);
    this.failWith(res, this.formatOf(req) ?? JSON_ANSWER, err);
  };

  /** A thrown error as the archive tells it: the kit's status, id and headers (an Allow, say), in the format asked for. */
  private failWith(res: Response, format: Negotiated, err: unknown): void {
    const problem = problemOf(err);
    if (problem.status >= 500) recordFault(res, err);
    if (!res.headersSent) for (const [name, value] of Object.entries(problem.headers ?? {})) res.setHeader(name, value);
    this.fail(res, format, failureOf(problem.status, problem.id, problem.message, problem.errors));
  }

  /** The format of a request: its suffix, else its Accept (null: 406); its media type as Accept names it. */
  private formatOf(req: Request): Negotiated | null {
    const last = req.path.slice(req.path.lastIndexOf('/') + 1);
    return negotiateFormat(req.headers.accept, this.deps.vendor, splitSuffix(last).format);
  }

  private async serve(type: ArchiveType, req: Request, res: Response): Promise<void> {
    let format = this.formatOf(req);
    try {
      if (!format) {
        format = JSON_ANSWER;
        this.fail(
          res,
          format,
          failureOf(
            406,
            'not_acceptable',
            `Cannot produce ${req.headers.accept}; the archive serves application/json, ${GEOJSON_MEDIA_TYPE} (history and latest), application/xml, text/xml and ${KML_MEDIA_TYPE}`,
          ),
        );
        return;
      }
      const params = req.params as Record<string, string>;
      const dated = params.date !== undefined;
      const { segment: last, unknown } = splitSuffix(dated ? params.date! : params.location!);
      if (unknown !== undefined) {
        const message = `No format ${unknown}; a path may end in ${SUFFIXES}, or leave the format to the Accept header`;
        throw new NotFoundError('route', unknown, message, [{ path: 'format', message }]);
      }
      const now = this.deps.now().getTime();
      const query = parseArchiveQuery({
        type,
        request: params.request!,
        location: dated ? params.location! : last,
        ...(dated ? { date: last } : {}),
        query: req.query as Record<string, unknown>,
        now,
      });
      await this.authenticate(type, req);
      const result = await answer(query, now, this.deps.blocks, this.deps.reports);
      this.answered(res, format, result);
    } catch (err) {
      this.failWith(res, format ?? JSON_ANSWER, err);
    }
  }

  /** `u`, `t` and the caller's address, registered for this type (docs/interface.md §11); else 401. */
  private async authenticate(type: ArchiveType, req: Request): Promise<void> {
    const { u, t } = req.query as Record<string, unknown>;
    if (typeof u !== 'string' || typeof t !== 'string') throw REFUSED;
    // the same work for a registered name as for an unknown one (ArchiveUserStore.authenticate)
    const user = await this.deps.users.authenticate(u, t);
    const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], this.deps.trustedProxies);
    if (!user || !user.types.has(type) || !address || !anyRangeHolds(user.ranges, address)) throw REFUSED;
  }

  /**
   * The answer in the format asked for. GeoJSON is for a set of places (latest, history); a
   * summary asked for as GeoJSON is JSON (spec 4.11: "JSON or GeoJSON ... depending on the request").
   */
  private answered(res: Response, format: Negotiated, result: ArchiveAnswer): void {
    if (format.format !== 'geojson') return this.send(res, 200, format, RENDER_ANSWER[format.format](result));
    if (result.kind === 'features') return this.send(res, 200, format, answerGeoJson(result));
    this.send(res, 200, JSON_ANSWER, answerJson(result));
  }

  private fail(res: Response, format: Negotiated, failure: ArchiveFailure): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    // RFC 9110 section 11.6.1: a 401 names its scheme; the archive's are query parameters, not Basic.
    if (failure.code === 401) res.setHeader('WWW-Authenticate', 'ArchiveToken realm="fieldcast-archive", params="u t"');
    // A failure is no set of places: asked for as GeoJSON, it is JSON.
    if (format.format === 'geojson') return this.send(res, failure.code, JSON_ANSWER, failureJson(failure));
    this.send(res, failure.code, format, RENDER_FAILURE[format.format](failure));
  }

  /** Every answer of the archive goes out here: its format's type, Vary (the Accept header chose it) and CACHE_CONTROL. */
  private send(res: Response, status: number, format: Negotiated, body: string): void {
    res.status(status).setHeader('Content-Type', format.contentType);
    res.setHeader('Vary', 'Accept');
    res.setHeader('Cache-Control', CACHE_CONTROL);
    // Bytes, so Express adds no charset to the type: GeoJSON's has no parameters (RFC 7946 section 12).
    res.send(Buffer.from(body, 'utf8'));
  }
}

const ALTERNATIVES = (type: ArchiveType, vendor: string) => [
  { mediaType: GEOJSON_MEDIA_TYPE, schema: archiveFeatureCollection(type) },
  { mediaType: 'application/xml' },
  { mediaType: 'text/xml' },
  { mediaType: KML_MEDIA_TYPE },
  { mediaType: kmlVendorType(vendor) },
];

/** The operations: per type, with and without an event day in the path. */
export function archiveRoutes(deps: ArchiveRouteDeps): Api {
  const api = new ArchiveApi(deps);
  const failureBodies = [
    { mediaType: 'application/json', schema: ArchiveError },
    { mediaType: 'application/xml' },
    { mediaType: 'text/xml' },
    { mediaType: KML_MEDIA_TYPE },
  ];
  for (const type of ARCHIVE_TYPES) {
    const query = archiveQueryParameters(type === 'lightning');
    const response = {
      status: 200,
      description: `${type}: summary per event day, or the latest event or the history as GeoJSON (the FeatureCollection alone by Accept: ${GEOJSON_MEDIA_TYPE}); XML by Accept: application/xml (or text/xml) or .xml, KML by Accept: ${KML_MEDIA_TYPE} (or ${kmlVendorType(deps.vendor)}) or .kml`,
      mediaType: 'application/json',
      schema: archiveBody(type),
      alternatives: ALTERNATIVES(type, deps.vendor),
    };
    const common = { method: 'get' as const, tags: ['archive'], response, auth: false, errors: [400, 401, 404, 422], failureBodies };
    api.op({
      ...common,
      path: `/${SERVED_MAJOR}/${type}/{request}/{location}`,
      summary: `${type} at a point or in a region, over begin..end`,
      params: ArchivePath,
      query,
      handle: () => undefined,
    });
    api.op({
      ...common,
      path: `/${SERVED_MAJOR}/${type}/{request}/{location}/{date}`,
      summary: `${type} at a point or in a region on one event day`,
      params: ArchivePathWithDate,
      // the event day is the time range: begin and end are refused here (docs/interface.md §11)
      query: query.omit({ begin: true, end: true }),
      handle: () => undefined,
    });
  }
  return api;
}
