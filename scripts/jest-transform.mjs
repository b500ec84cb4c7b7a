// The unit and integration suites' transform: @swc/jest's, plus one module-scope binding of the
// built-in globals each module uses.
//
// Why: Jest runs every test file in a vm context, and in a vm context each read of a global
// (`Math` in `Math.imul(...)`) goes through the context's property interceptor, a call into C++.
// Measured under Jest on Node 20: a hash of four Math.imul calls ran 35 times slower than with
// `Math` bound in the module, so the synthetic world's noise, the climate and every hot loop ran
// an order of magnitude slower in tests than in the fleet. A module-scope `const` is read from
// the module's own scope, with no interceptor. The bound objects are the context's own globals,
// so behaviour is unchanged: only the lookup differs. Globals a test may replace at run time
// (timers, Date under fake timers, process, console) are never bound.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const swcJest = createRequire(import.meta.url)('@swc/jest');

const BUILT_INS = [
  'Math',
  'Number',
  'String',
  'Array',
  'Object',
  'Map',
  'Set',
  'WeakMap',
  'JSON',
  'Symbol',
  'BigInt',
  'ArrayBuffer',
  'DataView',
  'Float64Array',
  'Float32Array',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
  'isFinite',
  'isNaN',
  'parseInt',
  'parseFloat',
];

/** Whether the module declares or imports `name` itself (then the global is not its to bind). */
function declares(code, name) {
  return new RegExp(
    `(?:\\b(?:const|let|var|class|function\\*?)\\s+|\\bimport\\s+(?:\\*\\s+as\\s+)?|\\bas\\s+)${name}\\b|import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`,
  ).test(code);
}

/**
 * Binds the built-ins `code` reads, on its first line (after a hashbang) so source-map lines stay
 * as they are.
 */
export function bindBuiltIns(code) {
  const used = BUILT_INS.filter((name) => new RegExp(`(?<![.\\w$])${name}\\b`).test(code) && !declares(code, name));
  return used.length === 0 ? code : code.replace(/^(#!.*\n)?/, (hashbang) => `${hashbang}const { ${used.join(', ')} } = globalThis; `);
}

const ownSource = readFileSync(new URL(import.meta.url), 'utf8');

export default {
  createTransformer(options) {
    const swc = swcJest.createTransformer(options);
    const bound = (result) => ({ ...result, code: bindBuiltIns(result.code) });
    return {
      canInstrument: swc.canInstrument,
      process: (...args) => bound(swc.process(...args)),
      processAsync: async (...args) => bound(await swc.processAsync(...args)),
      getCacheKey: (...args) =>
        createHash('sha1')
          .update(swc.getCacheKey(...args))
          .update(ownSource)
          .digest('hex'),
    };
  },
};
