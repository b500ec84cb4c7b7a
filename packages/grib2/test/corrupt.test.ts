/**
 * Corrupt messages (docs/decisions/0220-grib2-decoding.md, "Sizes read from the message"): every
 * size that makes an array or runs a loop is checked against what the message holds before it
 * is used, and a fault is a GribError naming the field. Messages come from test/encode.ts and are
 * then altered octet by octet: by hand for the known faults, and by a seeded mutation of 1-3 octets
 * for the rest.
 */
import { GribError, decodeField, readFields } from '../src/index.js';
import { type GridSpec, type MessageSpec, encodeMessage, pointsInScanningOrder } from './encode.js';

const GRID: GridSpec = { ni: 24, nj: 13, lat1: 60, lon1: 350, dLat: 5, dLon: 2.5 };
const POINTS = GRID.ni * GRID.nj;

function valuesFor(grid: GridSpec, missing?: (lat: number, k: number) => boolean): Float64Array {
  const { lat, lon } = pointsInScanningOrder(grid);
  return Float64Array.from(lat, (la, k) =>
    missing?.(la, k) ? NaN : 273.15 + 30 * Math.cos((la * Math.PI) / 180) + 8 * Math.sin((2 * lon[k]! * Math.PI) / 180),
  );
}

const message = (spec: Omit<MessageSpec, 'grid'>, missing?: (lat: number, k: number) => boolean) =>
  encodeMessage(valuesFor(GRID, missing), { grid: GRID, ...spec });

/** Offset of section `number` in a message (regulation 92.1.3: each section's octets 1-4 are its length, octet 5 its number). */
function sectionAt(m: Uint8Array, number: number): number {
  const view = new DataView(m.buffer, m.byteOffset, m.byteLength);
  for (let p = 16; p < m.length - 4; p += view.getUint32(p)) if (m[p + 4] === number) return p;
  throw new Error(`no section ${number}`);
}

/** Writes a 4-octet unsigned integer at octet `octet` (counted from 1, as WMO does) of section `number`. */
function setUint32(m: Uint8Array, number: number, octet: number, value: number): Uint8Array {
  const copy = Uint8Array.from(m);
  new DataView(copy.buffer).setUint32(sectionAt(copy, number) + octet - 1, value);
  return copy;
}

/** The message with section 7's data cut to `keep` octets, its section 7 and message lengths told so. */
function cutSection7(m: Uint8Array, keep: number): Uint8Array {
  const s7 = sectionAt(m, 7);
  const out = new Uint8Array(s7 + 5 + keep + 4);
  out.set(m.subarray(0, s7 + 5 + keep));
  out.set([0x37, 0x37, 0x37, 0x37], out.length - 4);
  const view = new DataView(out.buffer);
  view.setUint32(s7, 5 + keep);
  view.setBigUint64(8, BigInt(out.length));
  return out;
}

const dataOctets = (m: Uint8Array) => new DataView(m.buffer, m.byteOffset).getUint32(sectionAt(m, 7)) - 5;

describe('complex packing: the number of groups (section 5 octets 32-35)', () => {
  const order2 = message({ packing: { template: 3, decimal: 2, order: 2 } });

  it.each([100_000_000, 0xffffffff])('%i groups in a message of a few hundred octets are refused before any array is made', async (ng) => {
    const [field] = readFields(setUint32(order2, 5, 32, ng));
    expect(field!.representation.complex!.groups).toBe(ng);
    const bits = dataOctets(order2) * 8;
    const { bitsPerValue } = field!.representation;
    const { groupWidthBits, groupLengthBits } = field!.representation.complex!;
    await expect(decodeField(field!)).rejects.toThrow(GribError);
    await expect(decodeField(field!)).rejects.toThrow(
      `section 7 holds ${bits} bits of data; the references, widths and lengths of ${ng} groups (section 5 octets 32-35) of ` +
        `${bitsPerValue} + ${groupWidthBits} + ${groupLengthBits} bits (section 5 octets 20, 37, 47) need `,
    );
  });

  it('groups that need no bits are still no more than the values', async () => {
    const [field] = readFields(order2);
    // References, widths and lengths of no bits: section 7 bounds nothing, the number of values does.
    Object.assign(field!.representation, { bitsPerValue: 0 });
    Object.assign(field!.representation.complex!, { groups: 1_000_000_000, groupWidthBits: 0, groupLengthBits: 0 });
    await expect(decodeField(field!)).rejects.toThrow(
      new GribError(`1000000000 groups (section 5 octets 32-35) for ${POINTS} values (section 5 octets 6-9)`),
    );
  });

  it('a section 7 cut short of the group descriptors is refused', async () => {
    const [field] = readFields(cutSection7(order2, 8));
    await expect(decodeField(field!)).rejects.toThrow(/^section 7 holds 64 bits of data; the references, widths and lengths of \d+ groups/);
  });
});

describe('a truncated data section (section 7)', () => {
  it.each([
    ['12 bits', 12],
    ['8 bits (octet loop)', 8],
    ['16 bits (16-bit loop)', 16],
    ['25 bits (32-bit window)', 25],
  ])('simple packing of %s, half its data gone, is refused', async (_name, bits) => {
    const whole = message({ packing: { template: 0, decimal: 2, bits } });
    const half = Math.floor(dataOctets(whole) / 2);
    const [field] = readFields(cutSection7(whole, half));
    await expect(decodeField(field!)).rejects.toThrow(
      new GribError(
        `section 7 holds ${half * 8} bits of data; ${POINTS} values (section 5 octets 6-9) of ${bits} bits (section 5 octet 20) need ${POINTS * bits}`,
      ),
    );
  });

  it('simple packing one octet short is refused', async () => {
    const whole = message({ packing: { template: 0, decimal: 2, bits: 12 } });
    const [field] = readFields(cutSection7(whole, dataOctets(whole) - 1));
    await expect(decodeField(field!)).rejects.toThrow(GribError);
  });

  it('complex packing whose last group is cut is refused', async () => {
    const whole = message({ packing: { template: 2, decimal: 2 } });
    const [field] = readFields(cutSection7(whole, dataOctets(whole) - 1));
    await expect(decodeField(field!)).rejects.toThrow(GribError);
  });
});

/** Writes `octets` big-endian octets at octet `octet` (counted from 1) of section `number`. */
function setOctets(m: Uint8Array, number: number, octet: number, octets: number[]): Uint8Array {
  const copy = Uint8Array.from(m);
  copy.set(octets, sectionAt(copy, number) + octet - 1);
  return copy;
}

describe('the scaling of regulation 92.9.4 (section 5 octets 12-19)', () => {
  const simple = message({ packing: { template: 0, decimal: 2, bits: 16 } });

  it.each([
    ['NaN', [0x7f, 0xc0, 0, 0]],
    ['+Infinity', [0x7f, 0x80, 0, 0]],
    ['-Infinity', [0xff, 0x80, 0, 0]],
  ])('a reference value of %s is refused, not decoded to a field of NaN or infinite values', (name, octets) => {
    expect(() => readFields(setOctets(simple, 5, 12, octets))).toThrow(
      new GribError(`reference value (section 5 octets 12-15) is ${name}, not a finite IEEE 754 number`),
    );
  });

  it.each([
    // Sign-and-magnitude (92.1.5): 0x8000 | n is -n.
    ['binary scale factor 200', 16, [0, 200]],
    ['decimal scale factor -60', 18, [0x80, 60]],
    ['decimal scale factor -400', 18, [0x81, 0x90]],
  ])('a %s that scales the values beyond single precision is refused', async (_name, octet, octets) => {
    const [field] = readFields(setOctets(simple, 5, octet, octets));
    await expect(decodeField(field!)).rejects.toThrow(GribError);
    await expect(decodeField(field!)).rejects.toThrow(/beyond the largest single-precision number/);
  });
});

describe('the number of values (section 5 octets 6-9) with a bitmap (section 6)', () => {
  const gaps = (lat: number, k: number) => lat === 30 || k % 7 === 3;
  const set = Array.from(valuesFor(GRID, gaps)).filter((v) => !Number.isNaN(v)).length;

  it.each([
    ['simple packing', { template: 0, decimal: 2 } as const],
    ['complex packing', { template: 3, decimal: 2, order: 2 } as const],
  ])('%s: a count other than the points the bitmap sets is refused before decoding', async (_name, packing) => {
    const bytes = message({ packing, bitmap: true }, gaps);
    expect((await decodeField(readFields(bytes)[0]!)).filter(Number.isNaN)).toHaveLength(POINTS - set);
    for (const n of [0xffffffff, set + 1, set - 1]) {
      const [field] = readFields(setUint32(bytes, 5, 6, n));
      await expect(decodeField(field!)).rejects.toThrow(
        new GribError(`bitmap (section 6) sets ${set} of ${POINTS} points, section 5 octets 6-9 say ${n} values are packed`),
      );
    }
  });
});

describe('section lengths', () => {
  /** The message with section `number` cut to `keep` octets, its length and the message's told so. */
  function cutSection(m: Uint8Array, number: number, keep: number): Uint8Array {
    const at = sectionAt(m, number);
    const length = new DataView(m.buffer, m.byteOffset).getUint32(at);
    const out = Uint8Array.from([...m.subarray(0, at + keep), ...m.subarray(at + length)]);
    const view = new DataView(out.buffer);
    view.setUint32(at, keep);
    view.setBigUint64(8, BigInt(out.length));
    return out;
  }

  it.each([
    [3, 60, "section 3 of 60 octets, shorter than template 3.0's 72"],
    [4, 30, "section 4 of 30 octets, shorter than template 4.0's 34"],
    [5, 47, "section 5 of 47 octets, shorter than template 5.3's 49"],
    [6, 5, 'message at byte 0: section 6 of 5 octets, shorter than 6'],
  ])('a section %i cut to %i octets is refused', (number, keep, refusal) => {
    const bytes = message({ packing: { template: 3, decimal: 2, order: 2 } });
    expect(() => readFields(cutSection(bytes, number, keep))).toThrow(new GribError(refusal));
  });

  /** The message with section `number`'s length (its octets 1-4) set to `length`, nothing else moved. */
  const withLength = (m: Uint8Array, number: number, length: number) => setUint32(m, number, 1, length);

  it('a section 7 declaring fewer octets than it has is refused naming the section expected after it and what was found', () => {
    const bytes = message({ packing: { template: 3, decimal: 2, order: 2 } });
    const s7 = sectionAt(bytes, 7);
    const length = dataOctets(bytes) + 5;
    const short = withLength(bytes, 7, length - 20);
    // Where the shortened section 7 says the next section starts: a length of 1972978819 and section "68".
    short.set([0x75, 0x99, 0x44, 0x83, 68], s7 + length - 20);
    expect(() => readFields(short)).toThrow(
      new GribError(
        `message at byte 0: section 8 ("7777") or the next field's section 2, 3 or 4 should follow section 7 (data) at octet ${s7 + length - 19}, ` +
          "found no section there (its number, octet 5, reads 68): section 7's length (its octets 1-4) is wrong, or the message is damaged",
      ),
    );
  });

  it('a section 7 declaring more octets than the message has is refused naming it', () => {
    const bytes = message({ packing: { template: 3, decimal: 2, order: 2 } });
    const s7 = sectionAt(bytes, 7);
    const long = withLength(bytes, 7, bytes.length);
    expect(() => readFields(long)).toThrow(
      new GribError(
        `message at byte 0: section 7 (data) at octet ${s7 + 1} declares ${bytes.length} octets, more than the ${bytes.length - s7} left in the message: ` +
          'its length (octets 1-4) is wrong, or the message is cut short',
      ),
    );
  });

  it('a section out of the order of regulation 92.1.3 is refused naming the one expected', () => {
    const bytes = message({ packing: { template: 3, decimal: 2, order: 2 } });
    const s4 = sectionAt(bytes, 4);
    const swapped = Uint8Array.from(bytes);
    swapped[s4 + 4] = 6;
    expect(() => readFields(swapped)).toThrow(
      new GribError(
        `message at byte 0: section 4 (product definition) should follow section 3 (grid definition) at octet ${s4 + 1}, ` +
          "found section 6 (bitmap): section 3's length (its octets 1-4) is wrong, or the message is damaged",
      ),
    );
  });
});

/**
 * Seeded mutations: 1-3 octets of a message set to random values. Every mutated message must be
 * read and decoded to the grid's number of values, or refused with a GribError - no other error,
 * and no wait (the test's time limit). A message whose "GRIB" was hit is no message at all.
 */
describe('mutated messages decode or are refused with a GribError', () => {
  /** mulberry32: a small seeded generator, so that a failure names a mutation that can be replayed. */
  const generator = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };

  it.each([
    ['simple packing', { packing: { template: 0, decimal: 2 } } as const, undefined, 1],
    ['simple packing with a bitmap', { packing: { template: 0, decimal: 2 }, bitmap: true } as const, (lat: number) => lat === 30, 2],
    ['complex packing (5.2)', { packing: { template: 2, decimal: 2 } } as const, undefined, 3],
    [
      'complex packing, spatial differencing of order 2 and missing values (5.3)',
      { packing: { template: 3, decimal: 2, order: 2, missingManagement: 1 } } as const,
      (lat: number, k: number) => lat === 45 || k % 11 === 0,
      4,
    ],
  ])('%s: 2,000 mutations of 1-3 octets', async (_name, spec, missing, seed) => {
    const original = message(spec, missing);
    const random = generator(seed);
    const failures: string[] = [];
    const outcomes = { decoded: 0, refused: 0 };
    for (let run = 0; run < 2000; run++) {
      const bytes = Uint8Array.from(original);
      const changes: Array<[number, number]> = [];
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const at = Math.floor(random() * bytes.length);
        bytes[at] = Math.floor(random() * 256);
        changes.push([at, bytes[at]!]);
      }
      const name = `run ${run}, octets ${changes.map(([at, v]) => `${at}=${v}`).join(', ')}`;
      try {
        const fields = readFields(bytes);
        if (fields.length === 0 && !changes.some(([at]) => at < 4)) failures.push(`${name}: no field read`);
        for (const field of fields) {
          const values = await decodeField(field);
          if (values.length !== field.grid.ni * field.grid.nj)
            failures.push(`${name}: ${values.length} values for a grid of ${field.grid.ni} x ${field.grid.nj}`);
          if (values.some((v) => v === Infinity || v === -Infinity)) failures.push(`${name}: an infinite value decoded`);
        }
        outcomes.decoded++;
      } catch (error) {
        if (error instanceof GribError) outcomes.refused++;
        else failures.push(`${name}: ${String(error)}`);
      }
    }
    expect(failures).toEqual([]);
    // Both outcomes occur: the mutations reach the sizes the decoder checks, and values it just decodes.
    expect(outcomes.decoded).toBeGreaterThan(100);
    expect(outcomes.refused).toBeGreaterThan(100);
  });
});
