import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { accountOf } from './auth.js';
import { ApiError, type FieldError } from './errors.js';
import type { Account } from './identity.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

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
 * documented response would give.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface OperationResponse {
  status: number;
  description: string;
  schema?: z.ZodType;
  /** JSON by default; anything else (image/png, text/xml) is written by the handler itself */
  mediaType?: string;
}

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
   * Body faults under these top-level keys are semantic (valid JSON of the right shape whose
   * content is unacceptable, e.g. a bad geometry): 422 with this id instead of 400 (DESIGN.md section 3).
   */
  semantic?: { id: string; message: string; paths: string[] };
  response: OperationResponse;
  /** documented failure statuses besides the ones every operation has */
  errors?: number[];
  /** false for operations outside HTTP Basic (none in issue 2) */
  auth?: boolean;
  handle(ctx: OperationContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown> | unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any, any>;

export function formatIssues(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function parse(schema: z.ZodType | undefined, value: unknown, where: 'path' | 'query' | 'body', op: AnyOperation): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = formatIssues(result.error.issues);
  if (where === 'body') {
    const semantic = op.semantic;
    if (semantic && result.error.issues.some((i) => semantic.paths.includes(String(i.path[0] ?? '')))) {
      throw new ApiError(422, semantic.id, semantic.message, errors);
    }
    throw new ApiError(400, 'invalid_body', 'The request body is not valid', errors);
  }
  const names = [...new Set(errors.map((e) => e.path.split('.')[0]))].join(', ');
  throw new ApiError(400, 'invalid_parameter', `Invalid ${where} parameter${names.includes(',') ? 's' : ''}: ${names}`, errors);
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function expressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** What runs before an operation's validation and handler, in this order. */
export interface Pipeline {
  /** Accept negotiation (406) */
  negotiate: express.RequestHandler;
  /** the JSON body parser, for operations that take a body */
  parseBody: express.RequestHandler;
  /** HTTP Basic (401), for operations with `auth` not false */
  authenticate: express.RequestHandler;
}

/** Declares operations: each becomes an Express route with validation and an OpenAPI entry. */
export class Api {
  readonly operations: AnyOperation[] = [];

  op<P extends z.ZodType = z.ZodUnknown, Q extends z.ZodType = z.ZodUnknown, B extends z.ZodType = z.ZodUnknown>(operation: Operation<P, Q, B>): this {
    this.operations.push(operation);
    return this;
  }

  /**
   * One Express route per operation, whose single handler runs the pipeline steps itself:
   * negotiation, then body parsing (operations with a body only), then authentication, then
   * validation and the handler. One router layer per request instead of one per step saves the
   * router's per-layer dispatch on every call (docs/decisions.md, "Events performance").
   */
  mount(router: Router, pipeline: Pipeline): void {
    for (const op of this.operations) {
      const steps: express.RequestHandler[] = [pipeline.negotiate];
      if (op.body) steps.push(pipeline.parseBody);
      if (op.auth !== false) steps.push(pipeline.authenticate);
      const run = async (req: Request, res: Response, next: express.NextFunction): Promise<void> => {
        try {
          if (op.body && req.body === undefined && hasBody(req)) {
            throw new ApiError(415, 'unsupported_media_type', 'Send the request body as application/json');
          }
          // Parsed input lives in res.locals, never written back to req (Express 5: req.query is read-only).
          res.locals.params = parse(op.params, req.params, 'path', op);
          res.locals.query = parse(op.query, req.query, 'query', op);
          res.locals.body = parse(op.body, op.body ? (req.body ?? {}) : undefined, 'body', op);
          const account = op.auth === false ? (undefined as unknown as Account) : accountOf(res.locals);
          const result = await op.handle({ params: res.locals.params, query: res.locals.query, body: res.locals.body, account, req, res });
          if (res.headersSent) return;
          if (op.response.mediaType && op.response.mediaType !== 'application/json') return;
          res.status(op.response.status).send(result instanceof JsonText ? result.text : JSON.stringify(result));
        } catch (err) {
          next(err);
        }
      };
      router[op.method](expressPath(op.path), (req, res, next) => {
        res.locals.route = op.path;
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
