import { open } from 'node:fs/promises';
import { finished } from 'node:stream';
import {
  acceptedFileTypes,
  type Account,
  answeredNotModified,
  type Api,
  ClientStatusError,
  type Identity,
  InvalidRequestError,
  NotAcceptableError,
  NotAllowedError,
  type OperationContext,
} from '@fieldcast/kit';
import {
  TransferDatasetList,
  TransferDatasetParams,
  TransferDatasetsQuery,
  TransferDownloadQuery,
  TransferProductList,
  TransferProductParams,
} from '@fieldcast/schemas';
import { byteRange } from '../domain/byte-ranges.js';
import { FORMATS } from '../domain/datasets.js';
import type { CachedFile } from '../domain/file-cache.js';
import { LINK_LIFETIME_SECONDS, type UrlSigner } from '../domain/signing.js';
import { datasetPath, FileNotReady, type Transfer } from '../domain/transfer.js';

type Request = OperationContext<unknown, unknown, unknown>['req'];
type Response = OperationContext<unknown, unknown, unknown>['res'];

export interface ProductRouteDeps {
  transfer: Transfer;
  signer: UrlSigner;
  identity: Identity;
}

/**
 * An authority's host and optional port (RFC 3986 §3.2.2, §3.2.3): an IP literal in brackets, or
 * a registered name or IPv4 address of unreserved, percent-encoded and sub-delimiter characters.
 * Anything else (a space, `@`, `/`, `?`, `#`) would make a link that is no URL or that names
 * another host.
 */
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(:\d*)?$/;

/**
 * The absolute base address of this request's service, for links (docs/interface.md §9: absolute
 * URLs), as the client reached it: through a trusted reverse proxy, its forwarded scheme and host.
 * A host of an invalid value is the request's fault (RFC 9112 §3.2: a server responds 400), not
 * an address to sign a link to.
 */
function baseOf(req: Request): string {
  const host = req.host ?? 'localhost';
  if (!AUTHORITY.test(host)) {
    const header = req.get('X-Forwarded-Host') !== undefined && host !== req.get('Host') ? 'X-Forwarded-Host' : 'Host';
    const message = 'must be a host and an optional port, such as transfer.example:8443 (RFC 3986 section 3.2.2)';
    throw new InvalidRequestError('invalid_host', `${header}: ${message}`, [{ path: header, message }]);
  }
  return `${req.protocol}://${host}`;
}

const MEDIA_TYPES = [...new Set(Object.values(FORMATS).map((f) => f.mediaType))];

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * A signed link's account (docs/decisions/0164-signed-download-urls.md): none when the request
 * carries no signature (HTTP Basic then), the account when it is valid, 403 when it is altered,
 * expired, incomplete, or its account no longer exists.
 */
function signedAccount(signer: UrlSigner, identity: Identity) {
  return async (req: Request): Promise<Account | undefined> => {
    const { account, expires, signature } = req.query as Record<string, unknown>;
    if (account === undefined && expires === undefined && signature === undefined) return undefined;
    const invalid = () => new NotAllowedError('signature_invalid', 'The link is not valid: ask the dataset list for a new one');
    const id = one(account);
    const sig = one(signature);
    const exp = one(expires);
    if (!id || !sig || !exp || !/^\d{1,12}$/.test(exp)) throw invalid();
    const path = datasetPath(String(req.params.name), String(req.params.dataset));
    const verdict = signer.verify(path, { account: id, expires: Number(exp), signature: sig });
    if (verdict === 'expired')
      throw new NotAllowedError(
        'signature_expired',
        `The link has expired (links work for ${LINK_LIFETIME_SECONDS / 60} minutes): ask the dataset list for a new one`,
      );
    if (verdict !== 'valid') throw invalid();
    const found = await identity.findAccount(id);
    if (!found || found.id !== id) throw invalid();
    return found;
  };
}

/**
 * Streams a made file (RFC 9110: ETag, If-Match, If-None-Match, Range with If-Range, HEAD). The file is
 * opened before anything is sent, so a file dropped from the cache in between is made again
 * rather than answered half.
 */
async function sendFile(req: Request, res: Response, file: CachedFile, name: string, mediaType: string): Promise<void> {
  const etag = `"${file.sha256}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'bytes');
  // Private: the answer is the account's; no-transform keeps compression off a byte-ranged file (RFC 9111 section 5.2.2.6).
  res.setHeader('Cache-Control', 'private, no-cache, no-transform');
  // If-Match first, then If-None-Match (RFC 9110 section 13.2.2): a client joining ranges of one
  // file names the version it began with, and a forecast file is made again each hour
  // (docs/decisions/0390-dataset-downloads-honour-if-match.md).
  if (answeredNotModified(req, res, etag)) return;
  const ifRange = req.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? byteRange(req.headers.range, file.size) : { kind: 'whole' as const };
  if (range.kind === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${file.size}`);
    throw new ClientStatusError(416, 'range_not_satisfiable', `The file has ${file.size} bytes; the range asked for starts past its end`);
  }
  const handle = await open(file.path, 'r');
  const start = range.kind === 'part' ? range.start : 0;
  const end = range.kind === 'part' ? range.end : file.size - 1;
  res.status(range.kind === 'part' ? 206 : 200);
  if (range.kind === 'part') res.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
  res.setHeader('Content-Type', mediaType);
  res.setHeader('Content-Length', String(Math.max(0, end - start + 1)));
  res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
  if (req.method === 'HEAD' || file.size === 0) {
    await handle.close();
    res.end();
    return;
  }
  const stream = handle.createReadStream({ start, end, autoClose: false });
  // The file is closed however the read ends: read whole, failed, or stopped by a client that left.
  stream.once('close', () => void handle.close().catch(() => undefined));
  // finished() also answers for a client that left while the file was being opened, whose 'close' has passed.
  finished(res, () => stream.destroy());
  // A failed read ends the response: its headers are gone, so no problem body can follow.
  stream.once('error', () => res.destroy());
  stream.pipe(res);
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** Data-transfer products, their datasets and their files (spec 2.5, 4.9; docs/interface.md §9). */
export function productRoutes(api: Api, deps: ProductRouteDeps): Api {
  return api
    .op({
      method: 'get',
      path: '/products',
      summary: 'Data-transfer products',
      description:
        'The data-transfer products the account may see (spec 2.5): name, format (GeoTIFF or NetCDF) and the path of its dataset list. A product carrying the variable of a restricted product is listed only to the accounts granted that product.',
      tags: ['data transfer'],
      response: { status: 200, description: 'The products, in catalog order', schema: TransferProductList },
      handle: ({ account }) => deps.transfer.products(account.id),
    })
    .op({
      method: 'get',
      path: '/products/{name}/datasets',
      summary: 'Datasets of a product on one day',
      description: `The datasets whose first valid time falls on the date (UTC; today by default), each with its variables, bounds, resolution, size and checksum once made, and a downloadUrl that works without credentials for ${LINK_LIFETIME_SECONDS / 60} minutes. A date before 2015-01-01 or after the end of the forecast is 400 date_out_of_range; a Host (or a trusted proxy's X-Forwarded-Host) that is no host and port, which no link can name, 400 invalid_host (RFC 9112 §3.2). A product the account may not see (a restricted variable not granted to it) is 404, as an unknown one.`,
      tags: ['data transfer'],
      params: TransferProductParams,
      query: TransferDatasetsQuery,
      response: { status: 200, description: 'The datasets of the day, in time order', schema: TransferDatasetList },
      errors: [404],
      handle: ({ params, query, account, req }) => deps.transfer.datasets(params.name, query.date, account.id, baseOf(req)),
    })
    .op({
      method: 'get',
      path: '/products/{name}/datasets/{dataset}',
      summary: "A dataset's file",
      description:
        "The GeoTIFF or NetCDF file, made from the weather on first request and then served from a cache. Takes the signed link's account, expires and signature, or HTTP Basic credentials. Answers HEAD, Range (one byte range: 206; past the end: 416) with If-Range, If-Match (another version: 412) and If-None-Match (304) on its ETag, the SHA-256 of its bytes. A signature that is altered, expired or for another dataset is 403. A product the account (the link's) may not see is 404, from the moment its grant is revoked. A file not made within a minute of its first request is 503 dataset_being_made with Retry-After; it is still being made, and a later request gets it.",
      tags: ['data transfer'],
      params: TransferDatasetParams,
      query: TransferDownloadQuery,
      response: { status: 200, description: 'The file (206 for a range)', mediaType: MEDIA_TYPES[0] },
      produces: MEDIA_TYPES,
      credential: signedAccount(deps.signer, deps.identity),
      errors: [403, 404, 416, 503],
      conditional: { tagged: true, ifMatch: true, ifNoneMatch: true },
      handle: async ({ params, account, req, res }) => {
        // The operation produces both formats; this dataset's file is one of them, and an Accept
        // that takes only the other is 406, not answered with a file it refused (RFC 9110 section 12.5.1).
        const type = await deps.transfer.mediaType(params.name, account.id);
        if (!acceptedFileTypes(res).includes(type))
          throw new NotAcceptableError(`Cannot produce ${req.headers.accept}; ${params.dataset} is ${type}`);
        let { file, mediaType } = await deps.transfer.file(params.name, params.dataset, account.id).catch((err: unknown) => {
          // RFC 9110 section 10.2.3: when to ask again.
          if (err instanceof FileNotReady) res.setHeader('Retry-After', String(err.retryAfterSeconds));
          throw err;
        });
        try {
          await sendFile(req, res, file, params.dataset, mediaType);
        } catch (err) {
          if (!isMissing(err) || res.headersSent) throw err;
          // Dropped from the cache between being found and being opened: made again, once.
          ({ file, mediaType } = await deps.transfer.file(params.name, params.dataset, account.id));
          await sendFile(req, res, file, params.dataset, mediaType);
        }
      },
    });
}
