import type { RequestHandler } from 'express';
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
    const colon = decoded.indexOf(':');
    if (colon < 0) {
      next(unauthorized());
      return;
    }
    const id = decoded.slice(0, colon);
    const key = decoded.slice(colon + 1);
    const known = identity.cachedAccount(id, key);
    if (known) {
      res.locals.account = known;
      next();
      return;
    }
    identity
      .authenticate(id, key)
      .then((account) => {
        if (!account) return next(unauthorized());
        res.locals.account = account;
        next();
      })
      .catch(next);
  };
}

export function accountOf(locals: Record<string, unknown>): Account {
  const account = locals.account as Account | undefined;
  if (!account) throw unauthorized();
  return account;
}
