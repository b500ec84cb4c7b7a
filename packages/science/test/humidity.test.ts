import {
  clampRelativeHumidity,
  dewpoint,
  relativeHumidity,
  saturationVapourPressure,
  saturationVapourPressureTetens,
  vapourPressureFromDewpoint,
} from '../src/index.js';

describe('saturation vapour pressure, Bolton (1980) eq. 10', () => {
  it('is 0.6112 kPa at 0 °C by construction of the formula', () => {
    expect(saturationVapourPressure(0)).toBeCloseTo(0.6112, 10);
  });

  // Reference: Smithsonian Meteorological Tables (List 1951, Goff-Gratch over water):
  // 0 °C 6.1078 hPa, 10 °C 12.272 hPa, 20 °C 23.373 hPa, 30 °C 42.430 hPa. Bolton states his
  // eq. 10 is within 0.1 % of the accurate curve for -35..35 °C: relative tolerance 0.1 %.
  it.each([
    [0, 0.61078],
    [10, 1.2272],
    [20, 2.3373],
    [30, 4.243],
  ])('%p °C -> %p kPa within 0.1 %%', (t, published) => {
    expect(Math.abs(saturationVapourPressure(t) / published - 1)).toBeLessThan(0.001);
  });

  // By hand: 0.6112 exp(17.67·20/263.5) = 0.6112 exp(1.341176) = 0.6112 × 3.82368 = 2.33703
  it('matches the formula worked by hand at 20 °C', () => {
    expect(saturationVapourPressure(20)).toBeCloseTo(2.337, 3);
  });
});

describe('saturation vapour pressure, Tetens form (FAO-56 eq. 11, Annex 2 Table 2.3)', () => {
  // FAO-56 Table 2.3 gives e°(T) to 3 decimals: tolerance ±0.0005 kPa.
  it.each([
    [1, 0.657],
    [10, 1.228],
    [20, 2.338],
    [25, 3.168],
    [30, 4.243],
  ])('%p °C -> %p kPa', (t, published) => {
    expect(Math.abs(saturationVapourPressureTetens(t) - published)).toBeLessThanOrEqual(0.0005);
  });
});

describe('relative humidity and dewpoint', () => {
  it('RH from T and Td agrees with the Smithsonian table ratio', () => {
    // T 20 °C, Td 10 °C: 12.272 / 23.373 = 52.50 % (table values above); tolerance 0.1 % RH.
    expect(relativeHumidity(20, 10)).toBeCloseTo(52.5, 1);
    // Saturated air: Td = T -> 100 %.
    expect(relativeHumidity(15, 15)).toBeCloseTo(100, 10);
  });

  it('dewpoint is the inverse of Bolton eq. 10', () => {
    // T 30 °C, RH 50 %: x = ln 0.5 + 17.67·30/273.5 = -0.693147 + 1.938208 = 1.245061;
    // Td = 243.5·1.245061 / (17.67 - 1.245061) = 303.172 / 16.424939 = 18.458 °C.
    expect(dewpoint(30, 50)).toBeCloseTo(18.458, 3);
    for (const t of [-20, 0, 12.5, 25, 40]) {
      for (const rh of [5, 30, 62.5, 99]) {
        expect(relativeHumidity(t, dewpoint(t, rh))).toBeCloseTo(rh, 9);
      }
    }
    expect(dewpoint(21, 100)).toBeCloseTo(21, 10);
  });

  it('clamps to 0-100 % and leaves undefined dewpoints as NaN', () => {
    expect(clampRelativeHumidity(104.2)).toBe(100);
    expect(clampRelativeHumidity(-3)).toBe(0);
    expect(clampRelativeHumidity(55)).toBe(55);
    expect(relativeHumidity(10, 12)).toBe(100); // dewpoint above temperature
    expect(dewpoint(10, 120)).toBeCloseTo(10, 10);
    expect(dewpoint(10, 0)).toBeNaN();
    expect(clampRelativeHumidity(Number.NaN)).toBeNaN();
  });

  it('vapour pressure from dewpoint is es(Td)', () => {
    expect(vapourPressureFromDewpoint(10)).toBeCloseTo(saturationVapourPressure(10), 12);
  });
});
