// The test suites' transform (scripts/jest-transform.mjs) binds built-in globals in module scope
// so hot loops under Jest's vm context do not read them through the context's interceptor.
// @ts-expect-error: a plain ES module of the test tooling, without type declarations
import { bindBuiltIns } from '../../../scripts/jest-transform.mjs';

const bind = bindBuiltIns as (code: string) => string;

describe('jest transform', () => {
  it('binds the built-ins a module reads, once, before its code', () => {
    const code = 'import { x } from "y";\nexport const h = (a) => Math.imul(a, 3) + new Float64Array(1)[0];';
    expect(bind(code)).toBe(`const { Math, Float64Array } = globalThis; ${code}`);
  });

  it('leaves names the module declares or imports, and properties of the same name', () => {
    const code = [
      'import { Map as Grid } from "./grid.js";',
      'import * as JSON from "./json.js";',
      'const Set = 1;',
      'class Symbol {}',
      'export const n = thing.Number + Grid + JSON + Set + Symbol;',
    ].join('\n');
    expect(bind(code)).toBe(code);
  });

  it('keeps every line where it was, a hashbang first', () => {
    const code = '#!/usr/bin/env node\nconsole.log(Math.PI);\n';
    const out = bind(code);
    expect(out.split('\n')).toHaveLength(code.split('\n').length);
    expect(out.startsWith('#!/usr/bin/env node\nconst { Math } = globalThis; console.log')).toBe(true);
  });

  it('never binds what a test replaces at run time (timers, Date, process, console)', () => {
    const code = 'setTimeout(() => console.log(Date.now(), process.pid), 1);';
    expect(bind(code)).toBe(code);
  });

  it('gives a module the same objects as the context it runs in', () => {
    // this file went through the transform: its Math is the context's own
    expect(Math).toBe(globalThis.Math);
    expect(Float64Array).toBe(globalThis.Float64Array);
  });
});
