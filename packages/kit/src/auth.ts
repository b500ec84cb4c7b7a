import type { RequestHandler, Response } from 'express';
import { unauthorized } from './errors.js';
import type { Account, Identity } from './identity.js';

/** HTTP Basic: application id as user name, application key as password (public record). */
export function basicAuth(identity: Identity): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m) {
      next(unauthorized('Send the application id and key with HTTP Basic authentication'));
      return;
    }
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    // No colon: an id without a key, checked like any other bad credential (same time, identity.ts).
    const colon = decoded.indexOf(':');
    const id = colon < 0 ? decoded : decoded.slice(0, colon);
    const key = colon < 0 ? '' : decoded.slice(colon + 1);
    const known = identity.cachedAccount(id, key);
    if (known) {
      authenticated(res, known);
      next();
      return;
    }
    identity
      .authenticate(id, key)
      .then((account) => {
        if (!account) return next(unauthorized());
        authenticated(res, account);
        next();
      })
      .catch(next);
  };
}

/**
 * The request is the account's: an answer to it is for that account only, so no cache on the
 * way may keep it (RFC 9111 section 5.2.2.5), whatever the status.
 */
function authenticated(res: Response, account: Account): void {
  res.locals.account = account;
  res.setHeader('Cache-Control', 'no-store');
}

export function accountOf(locals: Record<string, unknown>): Account {
  const account = locals.account as Account | undefined;
  if (!account) throw unauthorized();
  return account;
}
