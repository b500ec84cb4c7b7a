import {
  celsiusDifferenceToFahrenheit,
  celsiusToFahrenheit,
  celsiusToKelvin,
  fahrenheitDifferenceToCelsius,
  fahrenheitToCelsius,
  fahrenheitToKelvin,
  hectopascalsToKilopascals,
  inchesToMillimetres,
  kelvinToCelsius,
  kelvinToFahrenheit,
  kilometresPerHourToMetresPerSecond,
  knotsToMetresPerSecond,
  kilopascalsToHectopascals,
  megajoulesPerDayToWattsPerSquareMetre,
  megajoulesPerHourToWattsPerSquareMetre,
  metresPerSecondToKilometresPerHour,
  metresPerSecondToKnots,
  metresPerSecondToMilesPerHour,
  milesPerHourToMetresPerSecond,
  millimetresToInches,
  wattsPerSquareMetreToMegajoulesPerDay,
  wattsPerSquareMetreToMegajoulesPerHour,
} from '../src/index.js';

describe('unit conversions (SI definitions; FAO-56 Annex 1 for the radiation factors)', () => {
  it('temperature', () => {
    expect(celsiusToFahrenheit(100)).toBeCloseTo(212, 12);
    expect(celsiusToFahrenheit(-40)).toBeCloseTo(-40, 12);
    expect(fahrenheitToCelsius(50)).toBeCloseTo(10, 12);
    expect(fahrenheitToCelsius(86)).toBeCloseTo(30, 12);
    expect(celsiusToKelvin(0)).toBeCloseTo(273.15, 12);
    expect(kelvinToCelsius(300)).toBeCloseTo(26.85, 12);
    expect(fahrenheitToKelvin(32)).toBeCloseTo(273.15, 12);
    expect(kelvinToFahrenheit(373.15)).toBeCloseTo(212, 9);
    expect(celsiusDifferenceToFahrenheit(10)).toBeCloseTo(18, 12);
    expect(fahrenheitDifferenceToCelsius(18)).toBeCloseTo(10, 12);
  });

  it('radiation: 1 W m-2 = 0.0036 MJ m-2 h-1 = 0.0864 MJ m-2 d-1 (FAO-56 Annex 1)', () => {
    expect(wattsPerSquareMetreToMegajoulesPerHour(1)).toBeCloseTo(0.0036, 15);
    expect(wattsPerSquareMetreToMegajoulesPerDay(1)).toBeCloseTo(0.0864, 15);
    expect(megajoulesPerHourToWattsPerSquareMetre(2.45)).toBeCloseTo(680.5556, 4);
    expect(megajoulesPerDayToWattsPerSquareMetre(8.64)).toBeCloseTo(100, 12);
  });

  it('depth, speed and pressure', () => {
    expect(millimetresToInches(25.4)).toBeCloseTo(1, 15);
    expect(inchesToMillimetres(0.1)).toBeCloseTo(2.54, 15);
    expect(metresPerSecondToKilometresPerHour(10)).toBeCloseTo(36, 12);
    expect(kilometresPerHourToMetresPerSecond(10)).toBeCloseTo(2.7778, 4);
    expect(milesPerHourToMetresPerSecond(1)).toBeCloseTo(0.44704, 15);
    expect(metresPerSecondToMilesPerHour(0.44704)).toBeCloseTo(1, 15);
    // 1 kt = 1852 m/h: 18 m/s, the damaging-gust threshold, is 34.99 kt; 50 kt is 25.72 m/s
    expect(metresPerSecondToKnots(18)).toBeCloseTo(34.9892, 4);
    expect(knotsToMetresPerSecond(50)).toBeCloseTo(25.7222, 4);
    expect(knotsToMetresPerSecond(metresPerSecondToKnots(7.3))).toBeCloseTo(7.3, 12);
    expect(kilopascalsToHectopascals(101.3)).toBeCloseTo(1013, 10);
    expect(hectopascalsToKilopascals(1013.25)).toBeCloseTo(101.325, 10);
  });
});
