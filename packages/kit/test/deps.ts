import { createLogger, type HttpDeps, type Identity } from '../src/index.js';

/** What a test service app is given: the identity it checks, a silent logger and the defaults, with `more` over them. */
export function testDeps(identity: Identity, more: Partial<HttpDeps> = {}): HttpDeps {
  return {
    identity,
    logger: createLogger({ level: 'silent' }),
    vendor: 'fieldcast',
    bodyLimit: '1mb',
    now: () => new Date(),
    ready: async () => ({}),
    ...more,
  };
}
