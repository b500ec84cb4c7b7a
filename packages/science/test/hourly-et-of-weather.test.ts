import { hourlyReferenceEt, saturationVapourPressureTetens, shortCropEtOfHour } from '../src/index.js';

/** The dewpoint whose vapour pressure is ea kPa: ASCE-EWRI 2005 eq. 8 (ea = e°(Tdew), the Tetens form of eq. 7) inverted. */
function dewpointOf(ea: number): number {
  const x = Math.log(ea / 0.6108);
  return (237.3 * x) / (17.27 - x);
}

describe('shortCropEtOfHour', () => {
  // Source: ASCE-EWRI (2005) "The ASCE Standardized Reference Evapotranspiration Equation",
  // Appendix C, hourly example (p. C-7), Greeley, Colorado: 40.41°N, 104.78°W, 1462.4 m, the
  // hour 11:00-12:00 MST (18:00-19:00 UTC) on 2 July 2000: T 30.9 °C, ea 1.02 kPa, Rs 3.21 MJ m-2 h-1,
  // u2 1.90 m/s, published ETos 0.73 mm/h (transcribed in pyet-org/pyet tests/testhourly.py).
  // Here on a UTC clock, with humidity as dewpoint and radiation in W m-2, as a weather grid gives them.
  const hour = {
    airTemperature: 30.9,
    dewpoint: dewpointOf(1.02),
    shortwave: 3.21 / 0.0036,
    windSpeed: 1.9,
    elevation: 1462.4,
    latitude: 40.41,
    longitude: -104.78,
    hourStartMs: Date.UTC(2000, 6, 2, 18),
  };

  it('gives the published ETos of the Greeley midday hour from gridded-weather inputs on a UTC clock', () => {
    expect(Math.abs(shortCropEtOfHour(hour) - 0.73)).toBeLessThanOrEqual(0.005);
  });

  it('takes the standard’s fallback cloudiness at night and counts ground below sea level as sea level', () => {
    // Night hour 03:00-04:00 MST (10:00-11:00 UTC) of the same example: T 15.5, ea 1.31, Rs 0, u2 0.63; ETos -0.01 printed.
    const night = {
      ...hour,
      airTemperature: 15.5,
      dewpoint: dewpointOf(1.31),
      shortwave: 0,
      windSpeed: 0.63,
      hourStartMs: Date.UTC(2000, 6, 2, 10),
    };
    expect(Math.abs(shortCropEtOfHour(night) - -0.01)).toBeLessThanOrEqual(0.02);
    expect(shortCropEtOfHour({ ...hour, elevation: -30 })).toBe(shortCropEtOfHour({ ...hour, elevation: 0 }));
    expect(shortCropEtOfHour({ ...hour, elevation: 0 })).not.toBe(shortCropEtOfHour(hour));
  });

  it('takes ea from the dewpoint with the standard’s own e° (ASCE-EWRI 2005 eqs. 7-8), as es is', () => {
    // Saturated air (dewpoint = air temperature): ea = es, so the aerodynamic term of eq. 1 is 0
    // and the hour is the radiation term alone. Bolton's e° for ea with Tetens' for es would leave
    // a vapour pressure deficit of -0.0025 kPa at 30 °C (docs/decisions/0011-humidity-and-reference-et-forms.md).
    const saturated = { ...hour, airTemperature: 30, dewpoint: 30 };
    expect(shortCropEtOfHour(saturated)).toBe(
      hourlyReferenceEt({
        temperature: 30,
        actualVapourPressure: saturationVapourPressureTetens(30),
        solarRadiation: hour.shortwave * 0.0036,
        windSpeed: hour.windSpeed,
        elevation: hour.elevation,
        latitude: hour.latitude,
        longitude: hour.longitude,
        dayOfYear: 184,
        midpointHour: 18.5,
      }).et,
    );
  });

  it('is NaN when an input is missing', () => {
    expect(shortCropEtOfHour({ ...hour, windSpeed: Number.NaN })).toBeNaN();
  });
});
