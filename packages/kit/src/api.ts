import express, { type Request, type Response, type Router } from 'express';
import { kindOf } from '@fieldcast/schemas';
import { z } from 'zod';
import { accountOf } from './auth.js';
import { createdLocation, createdReadPath } from './created-location.js';
import { CSV_MEDIA_TYPE, type CsvForm, csvAsked, csvFileName, type CsvOptions, sendCsv } from './csv.js';
import { InvalidRequestError, NotAcceptableError, UnsupportedMediaTypeError, ValidationError, type FieldError } from './errors.js';
import type { Account } from './identity.js';
import {
  fingerprintOf,
  type IdempotencyKeeper,
  idempotencyKeyOf,
  type KeptAnswer,
  keyInProgress,
  keysExhausted,
  replay,
} from './idempotency.js';
import { limitsOf } from './limits.js';
import { cannotProduce, jsonQuality, parseAccept, quality, vendorMediaType } from './negotiate.js';
import { methodNotAllowed } from './resource-methods.js';

/** The methods an operation may have: what a CORS preflight is told the service allows (service.ts), with HEAD beside GET. */
export const HTTP_METHODS = ['get', 'post', 'put', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What a handler gets: parsed input and the calling account. */
export interface OperationContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  account: Account;
  req: Request;
  res: Response;
}

/**
 * A handler's result that is already JSON text (for instance built by the database), sent as it
 * is instead of being parsed and serialised again. The text must be what JSON.stringify of the
 * documented response would give; a kept page may hold it already encoded as UTF-8 bytes, which
 * are sent without encoding them again.
 */
export class JsonText {
  constructor(readonly text: string | Buffer) {}
}

/**
 * A batch's answer, `{"results": [...]}`, as the JSON texts of its results in order (JsonText's
 * rules for each). Sent as JSON it is joined once; read for CSV, each result is parsed as its rows
 * are written, never the whole answer at once (csv.ts sendCsv).
 */
export class JsonResults {
  constructor(readonly results: readonly string[]) {}

  /** The answer as a CSV form reads it: `results` parses each text as it is reached. */
  parsed(): { results: Iterable<unknown> } {
    const texts = this.results;
    return {
      results: {
        *[Symbol.iterator]() {
          for (const text of texts) yield JSON.parse(text) as unknown;
        },
      },
    };
  }
}

export interface OperationResponse {
  status: number;
  description: string;
  schema?: z.ZodType;
  /** JSON by default; anything else (image/png, text/xml) is written by the handler itself */
  mediaType?: string;
  /** further media types the same answer may take (chosen by Accept or a path suffix), with a schema where one applies */
  alternatives?: MediaContent[];
}

/** One media type of a documented body, and its schema where one applies. */
export interface MediaContent {
  mediaType: string;
  schema?: z.ZodType;
}

/**
 * The answer to a body that fails its schema (docs/architecture.md §3): `malformed` is 400
 * invalid_body, a body of the wrong shape; `semantic` is 422 with its own id, a body of the right
 * shape whose content the rules refuse (a bad geometry).
 */
export class BodyFault {
  static readonly malformed = new BodyFault(400, 'invalid_body', 'The request body is not valid');

  static semantic(id: string, message: string): BodyFault {
    return new BodyFault(422, id, message);
  }

  private constructor(
    readonly status: 400 | 422,
    readonly id: string,
    readonly message: string,
  ) {}
}

/**
 * An operation's body faults: one answer for the whole body, or one per top-level member of the
 * body, every member named (the compiler asks for a member added to the schema). With members,
 * a body with any 422 member's fault is answered with the first such fault; otherwise, and for a
 * body that is no object at all, it is malformed.
 */
export type BodyFaults<B extends z.ZodType> = BodyFault | { readonly [K in keyof z.input<B> & string]-?: BodyFault };

export interface Operation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: HttpMethod;
  /** OpenAPI-style template, e.g. /fields/{id} */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  params?: P;
  query?: Q;
  body?: B;
  /**
   * How a body that fails `body` is answered: required with a body, so each operation says
   * whether its body faults are 400 or 422 (BodyFaults).
   */
  bodyFaults?: BodyFaults<B>;
  response: OperationResponse;
  /** documented failure statuses besides the ones every operation has */
  errors?: number[];
  /**
   * the bodies of failures, for an area that answers them in its own formats (the archive,
   * docs/interface.md §11) rather than problem+json
   */
  failureBodies?: MediaContent[];
  /** false for operations outside HTTP Basic */
  auth?: boolean;
  /**
   * Another proof of the account than HTTP Basic, such as a signed URL: an account lets the
   * request through without credentials, a throw refuses it (a 403 for a bad signature), and
   * undefined asks for HTTP Basic as usual. Requests it lets through skip the rate limit of
   * HTTP Basic requests, which is spent when the URL is handed out.
   */
  credential?: (req: Request) => Promise<Account | undefined> | Account | undefined;
  /**
   * Media types of a file the operation answers with besides its JSON errors (image/tiff): an
   * Accept naming one of them is served too, not only the JSON types every operation takes. Of
   * those, the ones the Accept takes are the handler's `acceptedFileTypes(res)`: an operation
   * whose files come in several types answers 406 for a file of a type the Accept does not take.
   */
  produces?: readonly string[];
  /**
   * true for an operation whose work is large (grids over many days): an account may have only
   * a few in flight at once, and a bounded number waiting their turn (docs/architecture.md §3, limits)
   */
  heavy?: boolean;
  /**
   * For an operation that answers 201: the path template of the GET that reads what it created,
   * named in the answer's Location (created-location.ts). Left out, the GET at `path` + `/{id}`;
   * false when the created resource has no read of its own.
   */
  location?: string | false;
  /**
   * true for a POST that creates a resource but answers other than 201 (an event, 200); one that
   * answers 201 creates by definition. A create takes an Idempotency-Key (creates, idempotency.ts).
   */
  creates?: boolean;
  /** true for a list whose answer names its next page in a Link header (RFC 8288, rel="next"): documented on its success response */
  pages?: boolean;
  /** the result also as CSV, for an Accept that prefers text/csv (csv.ts); JSON stays the default */
  csv?: CsvForm;
  /**
   * Its part in conditional requests (RFC 9110 section 13; conditional.ts), as its document states
   * it: `tagged`, its success answer carries the resource's ETag; `ifMatch`, it honours If-Match
   * (412); `ifNoneMatch`, it answers an If-None-Match naming the current tag with 304.
   */
  conditional?: { tagged?: boolean; ifMatch?: boolean; ifNoneMatch?: boolean };
  handle(ctx: OperationContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown> | unknown;
}

/** An operation with a body must state its body faults: the compiler asks, and `Api.op` checks again at run time. */
type BodyFaultsStated<B extends z.ZodType> = [B] extends [z.ZodUnknown] ? unknown : { bodyFaults: BodyFaults<B> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any, any>;

/**
 * The field errors of a refusal, one fault per value: once a value is refused for its type, the
 * other issues at its path are dropped. zod runs a length check (min, max, length) on any value
 * with a length, so a string where an array belongs would also be told it is too short, an array
 * where a string belongs that it is too long: faults of a type the value was never meant to have.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors = issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const mistyped = new Set(issues.flatMap((i, n) => (i.code === 'invalid_type' ? [errors[n]!.path] : [])));
  return errors.filter((e, n) => issues[n]!.code === 'invalid_type' || !mistyped.has(e.path));
}

function bodyFaultOf(faults: BodyFaults<z.ZodType> | undefined, issues: readonly z.core.$ZodIssue[]): BodyFault {
  if (!faults || faults instanceof BodyFault) return faults ?? BodyFault.malformed;
  const byMember = faults as Readonly<Record<string, BodyFault>>;
  for (const issue of issues) {
    const member = issue.path[0];
    const fault = typeof member === 'string' && Object.hasOwn(byMember, member) ? byMember[member] : undefined;
    if (fault && fault.status === 422) return fault;
  }
  return BodyFault.malformed;
}

/** A POST that creates a resource, and so takes an Idempotency-Key (docs/interface.md §1). */
export function createsResource(op: AnyOperation): boolean {
  return op.method === 'post' && (op.creates === true || op.response.status === 201);
}

/** A body (or query) that is no object at all: its one fault, said in words rather than zod's. */
const notAnObject = (issue: z.core.$ZodIssue) => issue.path.length === 0 && issue.code === 'invalid_type' && issue.expected === 'object';

function parse(schema: z.ZodType | undefined, value: unknown, where: 'path' | 'query' | 'body', op: AnyOperation): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = formatIssues(
    result.error.issues.map((i) => (notAnObject(i) ? { ...i, message: `the ${where} must be a JSON object, not ${kindOf(value)}` } : i)),
  );
  if (where === 'body') {
    // A request that sends no body where one is needed has the wrong shape (docs/interface.md §1,
    // 400; docs/decisions/0432): it is told so, not what each missing member of `{}` would have been.
    if (value === ABSENT_BODY)
      throw new InvalidRequestError('invalid_body', 'The request has no body; this operation needs one', [
        { path: '', message: 'the request has no body: send one as application/json' },
      ]);
    const fault = bodyFaultOf(op.bodyFaults, result.error.issues);
    if (fault.status === 422) throw new ValidationError(fault.id, fault.message, errors);
    throw new InvalidRequestError(fault.id, fault.message, errors);
  }
  const names = [...new Set(errors.map((e) => e.path.split('.')[0]))].join(', ');
  throw new InvalidRequestError('invalid_parameter', `Invalid ${where} parameter${names.includes(',') ? 's' : ''}: ${names}`, errors);
}

/** A handler's JSON result as the text sent. */
function jsonOf(result: unknown): string | Buffer {
  if (result instanceof JsonText) return result.text;
  if (result instanceof JsonResults) return `{"results":[${result.results.join(',')}]}`;
  return JSON.stringify(result);
}

/** The created resource's id: the `id` of a 201's body, parsed when the handler gave it as JSON text. */
function createdIdOf(result: unknown): string {
  const body = result instanceof JsonText ? (JSON.parse(result.text.toString()) as unknown) : result;
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') throw new Error('A 201 answer must carry the created resource’s id');
  return id;
}

/**
 * What a request that sends no body is read as: an object with no members. An operation whose
 * body schema takes it needs no body, and its document says so (openapi.ts).
 */
export const ABSENT_BODY: Readonly<Record<string, never>> = Object.freeze({});

/** Whether the request sends a body (RFC 9112 section 6.3): zero bytes, which the JSON reader parses as `{}`, are none. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function expressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * An Accept that takes one of the file's media types (by its most specific range, RFC 9110
 * section 12.5.1) is served, and one whose ranges refuse every one of them (q=0) is 406; anything
 * else is negotiated as JSON, the form of its errors, and a JSON Accept is served the file too.
 * One that takes neither is 406 naming the file's types. The types it takes (one named with
 * q > 0, or one it does not name when it takes JSON) are kept for `acceptedFileTypes`.
 */
function negotiateFile(produces: readonly string[], negotiate: express.RequestHandler, vendor: string): express.RequestHandler {
  const types = produces.map((t) => t.toLowerCase());
  return (req, res, next) => {
    const header = req.headers.accept;
    const refuse = () => cannotProduce(header, produces);
    if (header === undefined) res.locals.fileTypes = types;
    else {
      const ranges = parseAccept(header);
      const qualities = types.map((t) => quality(ranges, t));
      const json = jsonQuality(ranges, vendor).q > 0;
      res.locals.fileTypes = types.filter((_t, k) => qualities[k]!.q > 0 || (qualities[k]!.at === Infinity && json));
      if (qualities.some((m) => m.q > 0)) return next();
      // every type matched by a range, each at q=0: refused by name, not merely left out
      if (qualities.every((m) => m.at !== Infinity)) return next(refuse());
    }
    negotiate(req, res, (err?: unknown) => next(err instanceof NotAcceptableError ? refuse() : err));
  };
}

/** Of an operation's `produces`, the media types the request's Accept takes (negotiateFile), lower case. */
export function acceptedFileTypes(res: Response): readonly string[] {
  return (res.locals.fileTypes as string[] | undefined) ?? [];
}

/**
 * A request that prefers CSV is served as CSV (csv.ts csvAsked), its form kept for the answer;
 * any other is negotiated as JSON, and a 406 names CSV among what the operation serves (RFC 9110
 * section 15.5.7).
 */
function negotiateCsv(negotiate: express.RequestHandler, vendor: string): express.RequestHandler {
  const served = [vendorMediaType(vendor), 'application/json', CSV_MEDIA_TYPE];
  return (req, res, next) => {
    const asked = csvAsked(req, vendor);
    if (!asked)
      return negotiate(req, res, (err?: unknown) =>
        next(err instanceof NotAcceptableError ? cannotProduce(req.headers.accept, served) : err),
      );
    res.locals.csv = true;
    res.locals.csvOptions = asked;
    next();
  };
}

/** The operation's own credential when the request carries one, else HTTP Basic. */
function authenticateEither(credential: NonNullable<AnyOperation['credential']>, basic: express.RequestHandler): express.RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => credential(req))
      .then((account) => {
        if (!account) return basic(req, res, next);
        res.locals.account = account;
        next();
      }, next);
  };
}

/** What runs before an operation's validation and handler, in this order. */
export interface Pipeline {
  /** Accept negotiation (406) */
  negotiate: express.RequestHandler;
  /** the vendor of the API's JSON media type, `application/vnd.<vendor>+json` */
  vendor: string;
  /** HTTP Basic (401), for operations with `auth` not false */
  authenticate: express.RequestHandler;
  /** the JSON body parser, for operations that take a body: after authentication, so no body is read for a caller without credentials */
  parseBody: express.RequestHandler;
  /** the cap on an account's heavy requests in flight and its bounded queue (429), for operations declared `heavy` */
  limitHeavy?: express.RequestHandler;
  /** where creates keep their answers for an Idempotency-Key; without it, creates take none */
  idempotency?: IdempotencyKeeper;
}

/**
 * A create under an Idempotency-Key (draft-ietf-httpapi-idempotency-key-header; docs/decisions/0434-creates-answered-again-under-an-idempotency-key.md):
 * the answer kept for the key is sent again for the same request and refused (422) for another;
 * otherwise the create runs with the key claimed and its answer kept in its transaction. A request
 * while another holds the key is 409.
 */
async function runUnderKey(
  keeper: IdempotencyKeeper,
  claim: { accountId: string; key: string; fingerprint: string },
  req: Request,
  res: Response,
  handle: () => unknown,
  answerOf: (req: Request, res: Response, result: unknown) => Omit<KeptAnswer, 'fingerprint'>,
): Promise<void> {
  const kept = await keeper.find(claim.accountId, claim.key);
  if (kept) return replay(res, kept, claim.fingerprint);
  // An account keeps as many live answers per area as it may own resources of one kind (0442).
  const { ownedPerKind } = limitsOf(req);
  const outcome = await keeper.claim({ ...claim, maxKept: ownedPerKind }, async () => {
    const result = await handle();
    if (res.headersSent) throw new Error('A create answers through the kit, so its answer can be kept for its Idempotency-Key');
    const answer = answerOf(req, res, result);
    return { result: answer, answer };
  });
  if ('refused' in outcome) {
    if (outcome.refused === 'full') throw keysExhausted(res, ownedPerKind, outcome.afterMs);
    const taken = outcome.refused === 'taken' ? await keeper.find(claim.accountId, claim.key) : null;
    if (!taken) throw keyInProgress();
    return replay(res, taken, claim.fingerprint);
  }
  const answer = outcome.done;
  if (answer.location !== null) res.setHeader('Location', answer.location);
  res.status(answer.status).send(answer.body);
}

/** Declares operations: each becomes an Express route with validation and an OpenAPI entry. */
export class Api {
  readonly operations: AnyOperation[] = [];

  op<P extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, B extends z.ZodType = z.ZodUnknown>(
    operation: Operation<P, Q, B> & BodyFaultsStated<B>,
  ): this {
    if (operation.body && !operation.bodyFaults)
      throw new Error(`${operation.method.toUpperCase()} ${operation.path} takes a body, so it must state its bodyFaults`);
    this.operations.push(operation);
    return this;
  }

  /**
   * One Express route per operation, whose single handler runs the pipeline steps itself:
   * negotiation, then authentication, then body parsing (operations with a body only), then
   * validation and the handler. One router layer per request instead of one per step saves the
   * router's per-layer dispatch on every call (docs/decisions/0038-one-route-per-operation.md).
   */
  mount(router: Router, pipeline: Pipeline): void {
    router.use(methodNotAllowed(this.operations));
    for (const op of this.operations) {
      const readPath = createdReadPath(op, this.operations);
      const steps: express.RequestHandler[] = [
        op.produces
          ? negotiateFile(op.produces, pipeline.negotiate, pipeline.vendor)
          : op.csv
            ? negotiateCsv(pipeline.negotiate, pipeline.vendor)
            : pipeline.negotiate,
      ];
      if (op.auth !== false) steps.push(op.credential ? authenticateEither(op.credential, pipeline.authenticate) : pipeline.authenticate);
      if (op.body) steps.push(pipeline.parseBody);
      if (op.heavy && pipeline.limitHeavy) steps.push(pipeline.limitHeavy);
      const keeper = createsResource(op) ? pipeline.idempotency : undefined;
      /** The JSON answer a create gives: its status, Location, the ETag its handler set, and text (what a key keeps). */
      const answerOf = (req: Request, res: Response, result: unknown) => {
        const etag = res.getHeader('ETag');
        return {
          status: op.response.status,
          location: readPath ? createdLocation(req, readPath, createdIdOf(result)) : null,
          etag: typeof etag === 'string' ? etag : null,
          body: jsonOf(result).toString(),
        };
      };
      const run = async (req: Request, res: Response, next: express.NextFunction): Promise<void> => {
        try {
          if (op.body && req.body === undefined && hasBody(req)) {
            throw new UnsupportedMediaTypeError('unsupported_media_type', 'Send the request body as application/json');
          }
          const key = keeper ? idempotencyKeyOf(req) : undefined;
          // Parsed input lives in res.locals, never written back to req (Express 5: req.query is read-only).
          res.locals.params = parse(op.params, req.params, 'path', op);
          res.locals.query = parse(op.query, req.query, 'query', op);
          res.locals.body = parse(
            op.body,
            op.body ? (req.body === undefined || !hasBody(req) ? ABSENT_BODY : req.body) : undefined,
            'body',
            op,
          );
          const account = op.auth === false ? (undefined as unknown as Account) : accountOf(res.locals);
          const handle = () => op.handle({ params: res.locals.params, query: res.locals.query, body: res.locals.body, account, req, res });
          if (keeper && key !== undefined) {
            await runUnderKey(keeper, { accountId: account.id, key, fingerprint: fingerprintOf(req) }, req, res, handle, answerOf);
            return;
          }
          const result = await handle();
          if (res.headersSent) return;
          if (readPath) res.setHeader('Location', createdLocation(req, readPath, createdIdOf(result)));
          if (op.response.mediaType && op.response.mediaType !== 'application/json') return;
          if (op.csv && res.locals.csv === true) {
            const value =
              result instanceof JsonResults
                ? result.parsed()
                : result instanceof JsonText
                  ? (JSON.parse(result.text.toString()) as unknown)
                  : result;
            await sendCsv(res, op.response.status, op.csv.table(value, res.locals.params, res.locals.query), {
              ...(res.locals.csvOptions as CsvOptions),
              fileName: csvFileName(req.baseUrl + req.path),
            });
            return;
          }
          res.status(op.response.status).send(jsonOf(result));
        } catch (err) {
          next(err);
        }
      };
      router[op.method](expressPath(op.path), (req, res, next) => {
        res.locals.route = op.path;
        // The answer's form (and whether there is one: 406) follows Accept (RFC 9110 §12.5.5).
        res.vary('Accept');
        let i = 0;
        const step = (err?: unknown): void => {
          if (err) return next(err);
          const current = steps[i++];
          if (current) current(req, res, step);
          else void run(req, res, next);
        };
        step();
      });
    }
  }
}
