import {
  anyRangeHolds,
  Api,
  clientAddress,
  expressPath,
  problemOf,
  recordFault,
  UnauthorizedError,
  type AddressRange,
  type OperationContext,
  type Pipeline,
} from '@fieldcast/kit';
import { archiveBody, ArchiveError, ArchivePath, ArchivePathWithDate, archiveQueryParameters } from '@fieldcast/schemas';
import { answer } from '../domain/answer.js';
import type { SevereEventBlocks } from '../domain/event-blocks.js';
import type { IngestedReportSource } from '../domain/ingested-reports.js';
import { parseArchiveQuery } from '../domain/query.js';
import { tokenMatches } from '../domain/tokens.js';
import { ARCHIVE_TYPES, SERVED_MAJOR, type ArchiveType } from '../domain/types.js';
import { failureOf, type ArchiveFailure } from '../formats/failure.js';
import { answerJson, failureJson } from '../formats/json.js';
import { answerKml, failureKml } from '../formats/kml.js';
import { contentTypeOf, KML_MEDIA_TYPE, kmlVendorType, negotiateFormat, splitSuffix, type Negotiated } from '../formats/negotiate.js';
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
    // Any other path under a version: another major (404 naming the served one), or an unknown type.
    router.use((req: Request, res: Response, next: () => void) => {
      const m = /^\/(v\d+)(\/|$)/.exec(req.path);
      if (!m) return next();
      res.locals.route = '/{version}/*';
      const format = this.formatOf(req) ?? { format: 'json' as const, contentType: contentTypeOf('json') };
      const message =
        m[1] === SERVED_MAJOR
          ? `No archive resource at ${req.path}; the types are ${ARCHIVE_TYPES.join(', ')}: /${SERVED_MAJOR}/{type}/{summary|latest|history}/{location}[/{date}]`
          : `API version ${m[1]} is not served; this archive serves /${SERVED_MAJOR} (apiVersion 2.x.y)`;
      this.fail(res, format, failureOf(404, 'route_does_not_exist', message));
    });
    router.use(this.pathFailure);
  }

  /** A failure raised before a route's handler (a path segment that is not UTF-8 percent-encoding): under a version, told in the archive's formats. */
  private readonly pathFailure = (err: unknown, req: Request, res: Response, next: (err?: unknown) => void): void => {
    if (!/^\/v\d+(\/|$)/.test(req.path)) return next(err);
    const problem = problemOf(err);
    if (problem.status >= 500) recordFault(res, err);
    const format = this.formatOf(req) ?? { format: 'json' as const, contentType: contentTypeOf('json') };
    this.fail(res, format, failureOf(problem.status, problem.id, problem.message, problem.errors));
  };

  /** The format of a request: its suffix, else its Accept (null: 406). */
  private formatOf(req: Request): Negotiated | null {
    const last = req.path.slice(req.path.lastIndexOf('/') + 1);
    const { format } = splitSuffix(last);
    if (format) {
      const vendorKml = kmlVendorType(this.deps.vendor);
      const asked = req.headers.accept?.toLowerCase().includes(vendorKml) ? vendorKml : KML_MEDIA_TYPE;
      return { format, contentType: contentTypeOf(format, asked) };
    }
    return negotiateFormat(req.headers.accept, this.deps.vendor);
  }

  private async serve(type: ArchiveType, req: Request, res: Response): Promise<void> {
    let format = this.formatOf(req);
    try {
      if (!format) {
        format = { format: 'json', contentType: contentTypeOf('json') };
        this.fail(
          res,
          format,
          failureOf(
            406,
            'not_acceptable',
            `Cannot produce ${req.headers.accept}; the archive serves application/json, application/xml and ${KML_MEDIA_TYPE}`,
          ),
        );
        return;
      }
      const params = req.params as Record<string, string>;
      const dated = params.date !== undefined;
      const last = splitSuffix(dated ? params.date! : params.location!).segment;
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
      res.status(200).setHeader('Content-Type', format.contentType);
      res.setHeader('Vary', 'Accept');
      res.setHeader('Cache-Control', 'private, no-store');
      res.send(RENDER_ANSWER[format.format](result));
    } catch (err) {
      const problem = problemOf(err);
      if (problem.status >= 500) recordFault(res, err);
      this.fail(
        res,
        format ?? { format: 'json', contentType: contentTypeOf('json') },
        failureOf(problem.status, problem.id, problem.message, problem.errors),
      );
    }
  }

  /** `u`, `t` and the caller's address, registered for this type (docs/interface.md §11); else 401. */
  private async authenticate(type: ArchiveType, req: Request): Promise<void> {
    const { u, t } = req.query as Record<string, unknown>;
    if (typeof u !== 'string' || typeof t !== 'string') throw REFUSED;
    let user = await this.deps.users.find(u);
    // The token is compared whether or not the user exists, so both cost the same; a token that
    // differs from the one kept is checked against the database's (a registration just made).
    let tokenOk = tokenMatches(t, user?.tokenHash);
    if (user && !tokenOk) {
      user = await this.deps.users.find(u, { fresh: true });
      tokenOk = tokenMatches(t, user?.tokenHash);
    }
    const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], this.deps.trustedProxies);
    if (!user || !tokenOk || !user.types.has(type) || !address || !anyRangeHolds(user.ranges, address)) throw REFUSED;
  }

  private fail(res: Response, format: Negotiated, failure: ArchiveFailure): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    // RFC 9110 section 11.6.1: a 401 names its scheme; the archive's are query parameters, not Basic.
    if (failure.code === 401) res.setHeader('WWW-Authenticate', 'ArchiveToken realm="fieldcast-archive", params="u t"');
    res.status(failure.code).setHeader('Content-Type', format.contentType);
    res.setHeader('Vary', 'Accept');
    res.send(RENDER_FAILURE[format.format](failure));
  }
}

const ALTERNATIVES = (vendor: string) => [
  { mediaType: 'application/xml' },
  { mediaType: KML_MEDIA_TYPE },
  { mediaType: kmlVendorType(vendor) },
];

/** The operations: per type, with and without an event day in the path. */
export function archiveRoutes(deps: ArchiveRouteDeps): Api {
  const api = new ArchiveApi(deps);
  const failureBodies = [
    { mediaType: 'application/json', schema: ArchiveError },
    { mediaType: 'application/xml' },
    { mediaType: KML_MEDIA_TYPE },
  ];
  for (const type of ARCHIVE_TYPES) {
    const query = archiveQueryParameters(type === 'lightning');
    const response = {
      status: 200,
      description: `${type}: summary per event day, or the latest event or the history as GeoJSON; XML by Accept: application/xml or .xml, KML by Accept: ${KML_MEDIA_TYPE} (or ${kmlVendorType(deps.vendor)}) or .kml`,
      mediaType: 'application/json',
      schema: archiveBody(type),
      alternatives: ALTERNATIVES(deps.vendor),
    };
    const common = { method: 'get' as const, tags: ['archive'], query, response, auth: false, errors: [400, 401, 404, 422], failureBodies };
    api.op({
      ...common,
      path: `/${SERVED_MAJOR}/${type}/{request}/{location}`,
      summary: `${type} at a point or in a region, over begin..end`,
      params: ArchivePath,
      handle: () => undefined,
    });
    api.op({
      ...common,
      path: `/${SERVED_MAJOR}/${type}/{request}/{location}/{date}`,
      summary: `${type} at a point or in a region on one event day`,
      params: ArchivePathWithDate,
      handle: () => undefined,
    });
  }
  return api;
}
