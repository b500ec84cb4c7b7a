/**
 * Complex packing (templates 5.2/5.3, data 7.2/7.3) at its edges, value by value: integers past
 * float32's 2^24, groups of width 0 under missing value management (code table 5.5), groups of
 * 25 to 32 bits, a last group of one value, spatial differencing of order 1 and 2 whose first
 * values follow groups that are all missing. The expected values are Y = (R + X) / 10^D computed
 * in double and rounded to float32 once, as ecCodes computes them (then rounded to our float32):
 * ecCodes 2.28's `codes_get_values` gives these values for every message here, except where a
 * test says otherwise.
 */
import { decodeField, readFields } from '../src/index.js';
import { type ComplexGroups, type GroupsMessageSpec, type MessageSpec, encodeMessage } from './encode.js';

const decode = async (values: ArrayLike<number>, spec: MessageSpec | GroupsMessageSpec) =>
  Array.from(await decodeField(readFields(encodeMessage(values, spec))[0]!));

/** A field packed to `decimal` digits, as the reference decoder gives it: NaN where missing. */
const packed = (values: ArrayLike<number>, decimal: number) =>
  Array.from(values, (v) => (Number.isNaN(v) ? NaN : Math.fround(Math.round(v * 10 ** decimal) / 10 ** decimal)));

/** One row of `n` points. */
const row = (n: number) => ({ ni: n, nj: 1, lat1: 0, lon1: 0, dLat: 1, dLon: 1 });

describe('integers wider than float32 holds exactly (2^24)', () => {
  // A field around 0-80 with one value 2.5e8 steps of 0.01 below it: R is that value, so every
  // other X is above 2^27, and its group's reference or width too; differences of order 1 and 2
  // around it take 29 and 30 bits. Rounded to float32 before the scaling, X loses up to 8 steps,
  // and the sums of template 7.3 carry the loss on to the end of the field.
  const n = 200;
  const field = Float64Array.from({ length: n }, (_, k) =>
    k === 37 ? -2.5e6 : 40 * Math.sin(k / 7) + 40 - (k < 5 ? 45 : 0) + (k % 3) * 0.01,
  );
  const withMissing = field.map((v, k) => (k % 13 === 5 ? NaN : v));
  const cases: Array<[string, MessageSpec['packing']]> = [
    ['5.2', { template: 2, decimal: 2 }],
    ['5.3 order 1', { template: 3, decimal: 2, order: 1 }],
    ['5.3 order 2', { template: 3, decimal: 2, order: 2 }],
  ];

  it.each(cases)('%s', async (_name, packing) => {
    expect(await decode(field, { grid: row(n), packing })).toEqual(packed(field, 2));
  });
  it.each(
    cases.flatMap(([name, p]) => [1, 2].map((m) => [`${name}, missing value management ${m}`, { ...p, missingManagement: m }] as const)),
  )('%s', async (_name, packing) => {
    expect(await decode(withMissing, { grid: row(n), packing: packing as MessageSpec['packing'] })).toEqual(packed(withMissing, 2));
  });
  it('5.3 order 2 with a bitmap (section 6)', async () => {
    expect(await decode(withMissing, { grid: row(n), packing: { template: 3, decimal: 2, order: 2 }, bitmap: true })).toEqual(
      packed(withMissing, 2),
    );
  });
});

/** The integers X of `c`'s groups, as the notes to template 5.2 read them: NaN where missing. */
function integers(c: ComplexGroups): number[] {
  const isCode = (x: number, bits: number) =>
    (c.missingManagement > 0 && x === 2 ** bits - 1) || (c.missingManagement === 2 && x === 2 ** bits - 2);
  return c.groups.flatMap((g) =>
    Array.from({ length: g.length }, (_, k) => {
      if (g.width === 0) return isCode(g.reference, c.referenceBits) ? NaN : g.reference;
      const x = g.values![k]!;
      return isCode(x, g.width) ? NaN : g.reference + x;
    }),
  );
}

/** Y = (R + X) / 10^D in double, rounded to float32 once; NaN stays NaN. */
const scaled = (c: ComplexGroups, xs: number[]) =>
  xs.map((x) => (Number.isNaN(x) ? NaN : Math.fround((c.reference + x) / 10 ** c.decimal)));

const decodeGroups = (c: ComplexGroups) => {
  const n = c.groups.reduce((sum, g) => sum + g.length, 0);
  return decode(new Float64Array(n), { grid: row(n), packing: c });
};

describe('groups of width 0 (notes to template 5.2)', () => {
  // Under management 1 a reference of all ones in the references' width marks the whole group
  // missing; under 2 all ones less one too; any other reference is the value of every point of the
  // group, as it is under management 0 whatever its bits.
  const groups = (bits: number): ComplexGroups['groups'] => [
    { reference: 2 ** bits - 1, width: 0, length: 3 },
    { reference: 2 ** bits - 2, width: 0, length: 3 },
    { reference: 5, width: 0, length: 3 },
    { reference: 3, width: 4, length: 5, values: [0, 15, 14, 2, 13] },
    { reference: 2 ** bits - 1, width: 0, length: 1 },
  ];
  it.each([0, 1, 2].flatMap((m) => [4, 8, 31].map((bits) => [m, bits])))('management %i, references of %i bits', async (m, bits) => {
    const c: ComplexGroups = {
      template: 2,
      decimal: 1,
      reference: -5,
      referenceBits: bits,
      missingManagement: m as 0 | 1 | 2,
      groups: groups(bits),
    };
    const values = await decodeGroups(c);
    expect(values).toEqual(scaled(c, integers(c)));
    expect(values.filter(Number.isNaN)).toHaveLength([0, 5, 9][m]!);
  });
});

describe('groups of 25 to 32 bits', () => {
  // All ones in the group's width is the primary missing value, all ones less one the secondary
  // (code table 5.5). At 32 bits ecCodes 2.28 differs: it computes the code as (1 << 32) - 1 in a
  // C int, 0 on x86, and reads X = 0 as missing and all ones as a value (docs/decisions/0367).
  it.each([0, 1, 2].flatMap((m) => [25, 26, 30, 31, 32].map((w) => [m, w])))('management %i, %i bits', async (m, w) => {
    const c: ComplexGroups = {
      template: 2,
      decimal: 2,
      reference: -(2 ** 30),
      referenceBits: 31,
      missingManagement: m as 0 | 1 | 2,
      groups: [
        { reference: 2 ** 30, width: w, length: 6, values: [0, 1, 2 ** w - 1, 2 ** w - 2, 2 ** w - 3, 12345] },
        { reference: 5, width: w, length: 1, values: [2 ** (w - 1)] },
      ],
    };
    const values = await decodeGroups(c);
    expect(values).toEqual(scaled(c, integers(c)));
    expect(values.slice(0, 2)).toEqual([0, Math.fround(0.01)]);
  });
});

describe('spatial differencing after groups that are all missing (template 7.3)', () => {
  // The first one or two values that are not missing take the descriptors; the differences (here
  // of 30 bits, their minimum negative) run over the values that are not missing only.
  const first = 2 ** 29;
  const second = 2 ** 29 - 3;
  const minimum = -(2 ** 29);
  const undifferenced = (order: number, xs: number[]) => {
    const out: number[] = [];
    let [before, last] = [0, 0];
    for (const d of xs) {
      if (Number.isNaN(d)) {
        out.push(NaN);
        continue;
      }
      const seen = out.filter((x) => !Number.isNaN(x)).length;
      const x =
        seen === 0 ? first : seen === 1 && order === 2 ? second : order === 1 ? last + d + minimum : d + minimum + 2 * last - before;
      [before, last] = [last, x];
      out.push(x);
    }
    return out;
  };
  it.each([
    [1, 1],
    [1, 2],
    [2, 1],
    [2, 2],
  ])('order %i, management %i', async (order, m) => {
    const c: ComplexGroups = {
      template: 3,
      decimal: 1,
      reference: -1000,
      referenceBits: 30,
      missingManagement: m as 1 | 2,
      differencing: { order: order as 1 | 2, first, second, minimum },
      groups: [
        { reference: 2 ** 30 - 1, width: 0, length: 2 },
        { reference: 2 ** 30 - 2, width: 0, length: 1 },
        { reference: 2 ** 29, width: 0, length: 2 },
        { reference: 3, width: 30, length: 6, values: [2 ** 29 - 7, 2 ** 30 - 1, 2 ** 30 - 2, 2 ** 29 + 11, 0, 2 ** 29 - 1] },
        { reference: 2 ** 29 - 2, width: 3, length: 4, values: [1, 7, 6, 2] },
        { reference: 2 ** 29, width: 0, length: 1 },
      ],
    };
    const values = await decodeGroups(c);
    expect(values).toEqual(scaled(c, undifferenced(order, integers(c))));
    expect(values.filter(Number.isNaN)).toHaveLength(m === 1 ? 4 : 7);
  });
});
