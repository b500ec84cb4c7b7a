/**
 * The decoder on messages written by test/encode.ts (simple and complex packing, from WMO FM 92's
 * description of templates 5.0, 5.2, 5.3 and 7.x): grids in every scanning mode, products 4.0 and
 * 4.8, bitmaps, missing value management, several messages per file and several fields per
 * message, and the faults a reader must name. The packings ecCodes writes (JPEG 2000, PNG, CCSDS)
 * and the comparison with ecCodes and GDAL are in tests/integration/grib2-eccodes.int.test.ts.
 */
import { GribError, decodeField, readFields, timeUnitSeconds } from '../src/index.js';
import { type GridSpec, type MessageSpec, encodeMessage, pointsInScanningOrder } from './encode.js';

/** An analytic temperature (K) over the globe. */
const temperature = (lat: number, lon: number) => 273.15 + 30 * Math.cos((lat * Math.PI) / 180) + 8 * Math.sin((2 * lon * Math.PI) / 180);

const GRID: GridSpec = { ni: 24, nj: 13, lat1: 60, lon1: 350, dLat: 5, dLon: 2.5 };

function valuesFor(grid: GridSpec, missing?: (lat: number, lon: number, k: number) => boolean): Float64Array {
  const { lat, lon } = pointsInScanningOrder(grid);
  return Float64Array.from(lat, (la, k) => (missing?.(la, lon[k]!, k) ? NaN : temperature(la, lon[k]!)));
}

/** Decodes one message and checks every point against the analytic field within half a unit of the decimal scale. */
async function expectField(spec: MessageSpec, missing?: (lat: number, lon: number, k: number) => boolean): Promise<Float32Array> {
  const [field] = readFields(encodeMessage(valuesFor(spec.grid, missing), spec));
  const values = await decodeField(field!);
  const { ni, nj, lat0, lon0, dLat, dLon } = field!.grid;
  const tolerance = 0.5 * 10 ** -spec.packing.decimal + 1e-4;
  expect(values).toHaveLength(ni * nj);
  for (let row = 0; row < nj; row++) {
    for (let col = 0; col < ni; col++) {
      const lat = lat0 - row * dLat;
      const lon = lon0 + col * dLon;
      const got = values[row * ni + col]!;
      const k = (() => {
        // The point's index in the message's order, for the `missing` predicate.
        const { lat: las, lon: los } = pointsInScanningOrder(spec.grid);
        for (let i = 0; i < las.length; i++)
          if (Math.abs(las[i]! - lat) < 1e-9 && Math.abs((((los[i]! - lon) % 360) + 360) % 360) < 1e-9) return i;
        throw new Error(`no point at ${lat}, ${lon}`);
      })();
      if (missing?.(lat, lon, k)) expect(got).toBeNaN();
      else expect(Math.abs(got - temperature(lat, lon))).toBeLessThanOrEqual(tolerance);
    }
  }
  return values;
}

describe('grid definition template 3.0', () => {
  it('reads the grid and puts the first row north and the first column west', async () => {
    const [field] = readFields(encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 0, decimal: 2 } }));
    expect(field!.grid).toEqual({ template: 0, ni: 24, nj: 13, lat0: 60, lon0: 350, dLat: 5, dLon: 2.5, scanningMode: 0, shapeOfEarth: 6 });
    expect(field!.gridPoints).toBe(24 * 13);
  });

  // Flag table 3.4: 0x80 -i, 0x40 +j, 0x20 j consecutive; GFS and ECMWF write 0, others the rest.
  it.each([0x00, 0x40, 0x80, 0xc0, 0x20, 0x60, 0xa0, 0xe0].map((m) => [`0x${m.toString(16)}`, m]))(
    'scanning mode %s gives the same grid order',
    async (_name, mode) => {
      const plusJ = (mode & 0x40) !== 0;
      const minusI = (mode & 0x80) !== 0;
      // The same points, the first being the south-west, north-west, south-east or north-east corner.
      const grid: GridSpec = { ...GRID, lat1: plusJ ? 0 : 60, lon1: minusI ? 47.5 : 350, scanningMode: mode };
      const [field] = readFields(encodeMessage(valuesFor(grid), { grid, packing: { template: 0, decimal: 2 } }));
      expect(field!.grid.lat0).toBeCloseTo(60, 9);
      expect((field!.grid.lon0 + 360) % 360).toBeCloseTo(350, 9);
      await expectField({ grid, packing: { template: 0, decimal: 2 } });
    },
  );

  // Flag table 3.4 bits 4-8 lay points where a regular grid has none, or fewer per row: read as
  // mode 0 every value would sit at the wrong place, so the message is refused naming the bit.
  // The octets are ecCodes' (grib_set -s scanningMode=8 gives scanningMode5 = 1, and so on).
  it.each(
    (
      [
        [0x10, 'adjacent rows scan in opposite directions (flag table 3.4 bit 4)'],
        [0x08, 'points within odd rows are offset by half a grid step in i (flag table 3.4 bit 5)'],
        [0x04, 'points within even rows are offset by half a grid step in i (flag table 3.4 bit 6)'],
        [0x02, 'points are offset by half a grid step in j (flag table 3.4 bit 7)'],
        [0x01, 'rows or columns of offset points have one point fewer (flag table 3.4 bit 8)'],
      ] as const
    ).map(([mode, meaning]) => [`0x${mode.toString(16).padStart(2, '0')}`, mode, meaning] as const),
  )('refuses scanning mode %s, naming its flag', (hex, mode, meaning) => {
    const grid: GridSpec = { ...GRID, scanningMode: mode };
    const bytes = encodeMessage(valuesFor(grid), { grid, packing: { template: 0, decimal: 2 } });
    expect(() => readFields(bytes)).toThrow(
      new GribError(`scanning mode ${hex} (section 3 octet 72) is not supported: ${meaning}; only regular grids are read`),
    );
  });

  it('names every unsupported flag of a scanning mode', () => {
    const grid: GridSpec = { ...GRID, scanningMode: 0x0c };
    const bytes = encodeMessage(valuesFor(grid), { grid, packing: { template: 0, decimal: 2 } });
    expect(() => readFields(bytes)).toThrow(
      new GribError(
        'scanning mode 0x0c (section 3 octet 72) is not supported: points within odd rows are offset by half a grid step in i ' +
          '(flag table 3.4 bit 5), points within even rows are offset by half a grid step in i (flag table 3.4 bit 6); only regular grids are read',
      ),
    );
  });

  it('takes the increments from the corners when flag table 3.3 says they are not given', () => {
    const bytes = encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 0, decimal: 2 } });
    bytes[16 + 21 + 54] = 0; // octet 55 of section 3: resolution and component flags
    const [field] = readFields(bytes);
    expect([field!.grid.dLat, field!.grid.dLon]).toEqual([5, 2.5]);
  });

  it('names a grid template it does not read', () => {
    const bytes = encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 0, decimal: 2 } });
    // Section 3 starts after section 0 (16) and section 1 (21); its template number is at octets 13-14.
    bytes[16 + 21 + 13] = 40;
    expect(() => readFields(bytes)).toThrow(
      new GribError('grid definition template 3.40 is not supported (only 3.0, regular latitude/longitude)'),
    );
  });
});

describe('product definition templates 4.0 and 4.8', () => {
  const fieldOf = (spec: Omit<MessageSpec, 'grid' | 'packing'>) =>
    readFields(encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 0, decimal: 1 }, ...spec }))[0]!;

  it('4.0: parameter, level and forecast time', () => {
    const t0 = Date.UTC(2024, 6, 1, 12);
    const field = fieldOf({
      discipline: 0,
      category: 2,
      number: 2,
      surface: { type: 103, value: 10 },
      referenceTimeMs: t0,
      forecastHours: 18,
    });
    expect(field!.discipline).toBe(0);
    expect(field!.referenceTimeMs).toBe(t0);
    expect(field!.product).toEqual({
      template: 0,
      category: 2,
      number: 2,
      generatingProcess: 2,
      timeUnit: 1,
      forecastTime: 18,
      firstSurface: { type: 103, value: 10 },
      secondSurface: { type: 255, value: null },
    });
  });

  it('4.8: the statistical process, its interval and the interval end', () => {
    const t0 = Date.UTC(2024, 6, 1, 0);
    const field = fieldOf({
      category: 1,
      number: 8,
      surface: { type: 1, value: 0 },
      referenceTimeMs: t0,
      forecastHours: 12,
      statistic: { process: 1, rangeHours: 6 },
    });
    expect(field!.product.template).toBe(8);
    expect(field!.product.forecastTime).toBe(6); // the interval starts at 6 h and ends at 12 h
    expect(field!.product.intervalEndMs).toBe(t0 + 12 * 3_600_000);
    expect(field!.product.statistics).toEqual([
      { process: 1, incrementType: 2, rangeUnit: 1, rangeLength: 6, incrementUnit: 1, increment: 0 },
    ]);
  });
});

describe('timeUnitSeconds (code table 4.4)', () => {
  it.each([
    [0, 60],
    [1, 3600],
    [2, 86400],
    [10, 10800],
    [11, 21600],
    [12, 43200],
    [13, 1],
  ])('unit %i is %i s', (unit, seconds) => expect(timeUnitSeconds(unit)).toBe(seconds));
  it('counts units', () => expect(timeUnitSeconds(1, 6)).toBe(21600));
  it('refuses months, years and decades', () =>
    expect(() => timeUnitSeconds(3)).toThrow(new GribError('time unit 3 (code table 4.4) has no fixed length')));
});

describe('data representations', () => {
  it('5.0 simple packing', () => expectField({ grid: GRID, packing: { template: 0, decimal: 2 } }));
  /** A constant field as NCEP's g2lib and ecCodes write it: no bits per value, R the value, D as the producer set it. */
  const constant = (decimal: number) =>
    readFields(encodeMessage(new Float64Array(GRID.ni * GRID.nj).fill(287.5), { grid: GRID, packing: { template: 0, decimal } }))[0]!;
  it('5.0 with no bits: a constant field, the reference value whatever the decimal scale factor (docs/decisions/0420)', async () => {
    const field = constant(1);
    expect(field.representation).toMatchObject({ bitsPerValue: 0, reference: 287.5, decimalScale: 1 });
    expect(Array.from(new Set(await decodeField(field)))).toEqual([287.5]);
  });
  it.each([40, 41, 42] as const)('5.%i with no bits: the reference value, whatever the decimal scale factor', async (template) => {
    const field = constant(2);
    Object.assign(field.representation, { template, ccsds: { flags: 0, blockSize: 32, referenceSampleInterval: 128 } });
    expect(Array.from(new Set(await decodeField(field)))).toEqual([287.5]);
  });
  it.each([2, 3] as const)('5.%i with no groups (as g2lib packs a constant field): the reference value, whatever D', async (template) => {
    const [field] = readFields(encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template, decimal: 2, order: 2 } }));
    Object.assign(field!.representation, { reference: 287.5, decimalScale: 2, bitsPerValue: 0 });
    Object.assign(field!.representation.complex!, { groups: 0 });
    expect(Array.from(new Set(await decodeField(field!)))).toEqual([287.5]);
  });
  it('5.0 with a bitmap (section 6): NaN where no value is packed', () =>
    expectField(
      { grid: GRID, packing: { template: 0, decimal: 2 }, bitmap: true },
      (lat, _lon, k) => (lat > 20 && lat < 35) || k % 7 === 3,
    ));
  it('5.3 order 2 with a bitmap (section 6)', () =>
    expectField({ grid: GRID, packing: { template: 3, decimal: 2, order: 2 }, bitmap: true }, (lat, _lon, k) => lat === 45 || k % 9 === 2));
  it('5.2 complex packing', () => expectField({ grid: GRID, packing: { template: 2, decimal: 2 } }));
  it('5.3 spatial differencing of order 1', () => expectField({ grid: GRID, packing: { template: 3, decimal: 2, order: 1 } }));
  it('5.3 spatial differencing of order 2 (as GFS writes it)', () =>
    expectField({ grid: GRID, packing: { template: 3, decimal: 2, order: 2 } }));
  it('5.3 order 2 with primary missing values (code table 5.5: 1)', () =>
    expectField(
      { grid: GRID, packing: { template: 3, decimal: 2, order: 2, missingManagement: 1 } },
      (lat, _lon, k) => lat === 30 || k % 11 === 0,
    ));
  it('5.3 order 1 with primary and secondary missing values (code table 5.5: 2)', () =>
    expectField(
      { grid: GRID, packing: { template: 3, decimal: 2, order: 1, missingManagement: 2 } },
      (lat, _lon, k) => lat === 30 || k % 11 === 4,
    ));
  it('5.2 with missing values and groups that are all missing', () =>
    expectField(
      { grid: GRID, packing: { template: 2, decimal: 1, missingManagement: 1, groupLengths: [24] } },
      (lat) => lat === 45 || lat === 0,
    ));
  it('complex packing whose groups do not add up to the values fails naming it', async () => {
    const bytes = encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 3, decimal: 2, order: 2 } });
    const [field] = readFields(bytes);
    field!.representation.complex!.lastGroupLength += 1;
    await expect(decodeField(field!)).rejects.toThrow(new GribError('complex packing groups hold 313 values, section 5 says 312'));
  });
  it('a count of values that does not fill the grid, with no bitmap, fails naming it', async () => {
    const [field] = readFields(encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 0, decimal: 2 } }));
    field!.representation.numberOfValues -= 1;
    await expect(decodeField(field!)).rejects.toThrow(new GribError('311 values packed for a grid of 312 points and no bitmap'));
  });
});

describe("decoding into a caller's array", () => {
  it.each([
    ['scanning mode 0', { grid: GRID, packing: { template: 3, decimal: 2 } } as MessageSpec],
    [
      'scanning mode 0x40, a bitmap',
      { grid: { ...GRID, lat1: 0, scanningMode: 0x40 }, packing: { template: 0, decimal: 2 }, bitmap: true } as MessageSpec,
    ],
  ])('%s: the same values, in the array given', async (_name, spec) => {
    const [field] = readFields(
      encodeMessage(
        valuesFor(spec.grid, (lat) => lat === 30),
        spec,
      ),
    );
    const into = new Float32Array(GRID.ni * GRID.nj).fill(-1);
    const out = await decodeField(field!, into);
    expect(out).toBe(into);
    expect(Array.from(out)).toEqual(Array.from(await decodeField(field!)));
  });

  it('refuses an array of another size', async () => {
    const [field] = readFields(encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 0, decimal: 2 } }));
    await expect(decodeField(field!, new Float32Array(10))).rejects.toThrow(new GribError('an array of 10 values for a grid of 24 x 13'));
  });
});

describe('messages and fields', () => {
  const a = encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 0, decimal: 2 }, forecastHours: 1 });
  const b = encodeMessage(valuesFor(GRID), { grid: GRID, packing: { template: 3, decimal: 2 }, forecastHours: 2 });

  it('reads several messages in one file, skipping bytes between them', () => {
    const file = new Uint8Array([...a, 0, 1, 2, ...b]);
    const fields = readFields(file);
    expect(fields.map((f) => [f.messageOffset, f.messageLength, f.product.forecastTime])).toEqual([
      [0, a.length, 1],
      [a.length + 3, b.length, 2],
    ]);
  });

  /** Sections of a message after section 0, with their numbers. */
  const sectionsOf = (m: Uint8Array) => {
    const out: Array<[number, Uint8Array]> = [];
    for (let p = 16; p < m.length - 4;) {
      const len = new DataView(m.buffer, m.byteOffset + p).getUint32(0);
      out.push([m[p + 4]!, m.subarray(p, p + len)]);
      p += len;
    }
    return out;
  };
  /** Message `first` with the sections 4-7 of each of `more` appended before its section 8 (regulation 92.1.3). */
  const join = (first: Uint8Array, ...more: Uint8Array[][]) => {
    const extra = more.flat();
    const length = first.length + extra.reduce((s, x) => s + x.length, 0);
    const joined = new Uint8Array(length);
    joined.set(first.subarray(0, first.length - 4));
    let at = first.length - 4;
    for (const s of extra) {
      joined.set(s, at);
      at += s.length;
    }
    joined.set([0x37, 0x37, 0x37, 0x37], at);
    new DataView(joined.buffer).setBigUint64(8, BigInt(length));
    return joined;
  };
  const fieldSections = (m: Uint8Array) =>
    sectionsOf(m)
      .filter(([n]) => n >= 4)
      .map(([, s]) => s);

  it('reads several fields in one message (sections 4-7 repeated)', async () => {
    const fields = readFields(join(a, fieldSections(b)));
    expect(fields.map((f) => [f.fieldIndex, f.product.forecastTime, f.representation.template])).toEqual([
      [0, 1, 0],
      [1, 2, 3],
    ]);
    const [first, second] = await Promise.all(fields.map((f) => decodeField(f)));
    for (let k = 0; k < first!.length; k++) expect(Math.abs(first![k]! - second![k]!)).toBeLessThanOrEqual(0.011);
  });

  it('applies the bitmap defined earlier in the message where section 6 says 254', async () => {
    const gaps = (lat: number) => lat === 30;
    const spec: MessageSpec = { grid: GRID, packing: { template: 0, decimal: 2 }, bitmap: true };
    const withBitmap = encodeMessage(valuesFor(GRID, gaps), spec);
    const again = fieldSections(encodeMessage(valuesFor(GRID, gaps), { ...spec, forecastHours: 3 })).map((s) =>
      s[4] === 6 ? Uint8Array.from([0, 0, 0, 6, 6, 254]) : s,
    );
    const fields = readFields(join(withBitmap, again));
    expect(fields[1]!.bitmap).toBe(fields[0]!.bitmap);
    const [first, second] = await Promise.all(fields.map((f) => decodeField(f)));
    expect(Array.from(second!)).toEqual(Array.from(first!));
    expect(first!.filter(Number.isNaN)).toHaveLength(GRID.ni);
  });

  it('names a bitmap indicator 254 with no bitmap before it, and a predefined bitmap', () => {
    const sections = sectionsOf(a);
    const replaceBitmap = (indicator: number) =>
      join(
        Uint8Array.from([
          ...a.subarray(0, 16),
          ...sections.filter(([n]) => n < 4).flatMap(([, s]) => Array.from(s)),
          0x37,
          0x37,
          0x37,
          0x37,
        ]),
        sections.filter(([n]) => n >= 4).map(([, s]) => (s[4] === 6 ? Uint8Array.from([0, 0, 0, 6, 6, indicator]) : s)),
      );
    expect(() => readFields(replaceBitmap(254))).toThrow(new GribError('message at byte 0: bitmap indicator 254 with no earlier bitmap'));
    expect(() => readFields(replaceBitmap(7))).toThrow(new GribError('predefined bitmap 7 (code table 6.0) is not supported'));
  });

  it('names a truncated message', () => {
    expect(() => readFields(a.subarray(0, a.length - 10))).toThrow(
      new GribError(`message at byte 0 is truncated: ${a.length} bytes announced, ${a.length - 10} present`),
    );
  });

  it('names a message of another edition', () => {
    const grib1 = Uint8Array.from(a);
    grib1[7] = 1;
    expect(() => readFields(grib1)).toThrow(new GribError('message at byte 0 is GRIB edition 1, not 2'));
  });

  it('names a message with no section 8', () => {
    const broken = Uint8Array.from(a);
    broken.set([0, 0, 0, 0], a.length - 4);
    expect(() => readFields(broken)).toThrow(GribError);
  });

  it('finds no field in bytes that hold no message', () => {
    expect(readFields(new TextEncoder().encode('not a grib file'))).toEqual([]);
  });
});
