import type { VariableId } from '../src/grid/grid-source.js';
import { CANONICAL_UNITS, unitConversion, unitsFault, VARIABLE_IDS } from '../src/zarr/cf-variables.js';

// Units strings are UDUNITS-2 strings (CF 1.11 section 3.1). In UDUNITS-2 unit symbols are
// case-sensitive and names are not; a prefix symbol goes by its case ("M" mega, "m" milli), a
// prefix name ("kilo") in any case, and either may stand before a unit's name or symbol
// (parser.y, basic_exp). Each row names the UDUNITS-2 2.2 database file (lib/*.xml) that defines
// the spelling; the readings of the refused ones are those of the udunits2 program.

/** [units, a value in them, the same value in the variable's canonical units, where UDUNITS-2 defines it] */
type Accepted = [string, number, number, string];
/** [units, what UDUNITS-2 reads them as] */
type Refused = [string, string];

function describeUnits(variable: VariableId, accepted: Accepted[], refused: Refused[]) {
  describe(`${variable} (${CANONICAL_UNITS[variable]})`, () => {
    it.each(accepted)('converts "%s": %s is %s (%s)', (units, value, canonical) => {
      const c = unitConversion(variable, units);
      expect(c).not.toBeNull();
      expect(value * c!.scale + c!.offset).toBeCloseTo(canonical, 6);
    });

    it.each(refused)('refuses "%s" (in UDUNITS-2 %s)', (units) => {
      expect(unitConversion(variable, units)).toBeNull();
      const standardName = variable === 'precipitation_rate' ? 'lwe_precipitation_rate' : variable;
      const fault = unitsFault('x', { standard_name: standardName, units });
      expect(fault).toContain(`variable "x" (${variable}): units "${units}" cannot be read as ${CANONICAL_UNITS[variable]}`);
      expect(fault).toMatch(/\(CF 1\.11 section 3\.1\)$/);
    });
  });
}

describe('units as UDUNITS-2 reads them (CF 1.11 section 3.1)', () => {
  describeUnits(
    'air_temperature',
    [
      ['degC', 12.5, 12.5, 'udunits2-common.xml, name "degC"'],
      ['DEGC', 12.5, 12.5, 'udunits2-common.xml, name "degC" in any case'],
      ['degc', 12.5, 12.5, 'udunits2-common.xml, name "degC" in any case'],
      ['degsC', 12.5, 12.5, 'udunits2-common.xml, plural of "degC"'],
      ['deg_C', 12.5, 12.5, 'udunits2-common.xml, name "deg_C"'],
      ['degree_C', 12.5, 12.5, 'udunits2-common.xml, name "degree_C"'],
      ['degreesC', 12.5, 12.5, 'udunits2-common.xml, plural of "degreeC"'],
      ['Celsius', 12.5, 12.5, 'udunits2-common.xml, name "celsius" in any case'],
      ['degree_Celsius', 12.5, 12.5, 'udunits2-derived.xml, name "degree_Celsius"'],
      ['degrees_celsius', 12.5, 12.5, 'udunits2-derived.xml, plural "degrees_Celsius" in any case'],
      ['°C', 12.5, 12.5, 'udunits2-derived.xml, symbol "°C"'],
      ['℃', 12.5, 12.5, 'udunits2-common.xml, symbol U+2103'],
      ['K', 285.65, 12.5, 'udunits2-base.xml, symbol "K"'],
      ['°K', 285.65, 12.5, 'udunits2-common.xml, symbol "°K"'],
      ['kelvin', 285.65, 12.5, 'udunits2-base.xml, name "kelvin"'],
      ['Kelvins', 285.65, 12.5, 'udunits2-base.xml, "kelvin" with the plural xml.c forms, in any case'],
      ['degK', 285.65, 12.5, 'udunits2-common.xml, name "degK"'],
      ['DEGK', 285.65, 12.5, 'udunits2-common.xml, name "degK" in any case'],
      ['degF', 212, 100, 'udunits2-common.xml, name "degF"'],
      ['Fahrenheit', 32, 0, 'udunits2-common.xml, name "fahrenheit" in any case'],
      ['°F', 212, 100, 'udunits2-common.xml, symbol "°F"'],
      ['℉', 212, 100, 'udunits2-common.xml, symbol U+2109'],
    ],
    [
      ['C', 'the coulomb, udunits2-derived.xml'],
      ['c', 'the centi prefix alone, no unit'],
      ['k', 'the kilo prefix alone, no unit'],
      ['°c', 'no unit: the symbol is "°C"'],
      ['°f', 'no unit: the symbol is "°F"'],
      ['mK', 'the millikelvin'],
    ],
  );

  describeUnits(
    'surface_air_pressure',
    [
      ['kPa', 101.325, 101.325, 'udunits2-derived.xml "Pa" with the prefix symbol "k"'],
      ['Pa', 101_325, 101.325, 'udunits2-derived.xml, symbol "Pa"'],
      ['hPa', 1013.25, 101.325, 'udunits2-derived.xml "Pa" with the prefix symbol "h"'],
      ['mbar', 1013.25, 101.325, 'udunits2-accepted.xml name "bar" after the prefix symbol "m"'],
      ['mBar', 1013.25, 101.325, 'udunits2-accepted.xml name "bar" in any case after the prefix symbol "m"'],
      ['millibar', 1013.25, 101.325, 'udunits2-accepted.xml "bar" with the prefix name "milli"'],
      ['Millibars', 1013.25, 101.325, 'udunits2-accepted.xml "bar", plural, prefix name in any case'],
      ['pascal', 101_325, 101.325, 'udunits2-derived.xml, name "pascal"'],
      ['Pascal', 101_325, 101.325, 'udunits2-derived.xml, name "pascal" in any case'],
      ['PASCALS', 101_325, 101.325, 'udunits2-derived.xml, plural of "pascal" in any case'],
      ['kilopascal', 101.325, 101.325, 'udunits2-derived.xml "pascal" with the prefix name "kilo"'],
      ['KiloPascals', 101.325, 101.325, 'udunits2-derived.xml "pascal", plural, names in any case'],
      ['hectopascals', 1013.25, 101.325, 'udunits2-derived.xml "pascal" with the prefix name "hecto"'],
      ['kiloPa', 101.325, 101.325, 'udunits2-derived.xml "Pa" after the prefix name "kilo" (parser.y)'],
    ],
    [
      ['PA', 'the petaampere: prefix "P", ampere "A"'],
      ['pa', 'the picoare: prefix "p", are "a"'],
      ['KPA', 'no unit'],
      ['kpa', 'no unit'],
      ['kPA', 'the kilopetaampere is no unit: one prefix symbol only'],
      ['HPA', 'no unit'],
      ['hpa', 'no unit'],
      ['mb', 'the millibarn, udunits2-accepted.xml "b"'],
      ['MB', 'no unit'],
      ['MBAR', 'the megabar'],
      ['Mbar', 'the megabar'],
      ['MPa', 'the megapascal, which no conversion lists'],
    ],
  );

  describeUnits(
    'precipitation_rate',
    [
      ['mm h-1', 2.5, 2.5, 'udunits2-base.xml "m", prefix "m"; udunits2-accepted.xml "h"'],
      ['mm hr-1', 2.5, 2.5, 'udunits2-accepted.xml, symbol "hr"'],
      ['mm hour-1', 2.5, 2.5, 'udunits2-accepted.xml, name "hour"'],
      ['mm/h', 2.5, 2.5, 'UDUNITS-2 grammar, "/" divides'],
      ['mm/hr', 2.5, 2.5, 'UDUNITS-2 grammar, "/" divides'],
      ['mm per hour', 2.5, 2.5, 'UDUNITS-2 grammar, " per " divides'],
      ['millimetres per hour', 2.5, 2.5, 'udunits2-base.xml "metre", prefix name "milli"'],
      ['h-1 mm', 2.5, 2.5, 'UDUNITS-2 grammar, a product in any order'],
      ['kg m-2 h-1', 2.5, 2.5, 'udunits2-base.xml "kg", "m"; 1 kg m-2 of water is 1 mm'],
      ['kg m-2 s-1', 1 / 3600, 1, 'udunits2-base.xml "kg", "m", "s"'],
      ['kg/m2/s', 1 / 3600, 1, 'UDUNITS-2 grammar, "/" divides by the factor after it'],
      ['kg m**-2 s**-1', 1 / 3600, 1, 'UDUNITS-2 grammar, "**" raises'],
      ['kg m^-2 s^-1', 1 / 3600, 1, 'UDUNITS-2 grammar, "^" raises'],
      ['kg.m-2.s-1', 1 / 3600, 1, 'UDUNITS-2 grammar, "." multiplies'],
      ['kilogram m-2 s-1', 1 / 3600, 1, 'udunits2-base.xml, name "kilogram"'],
      ['mm s-1', 1 / 3600, 1, 'udunits2-base.xml "m", "s"'],
      ['mm/s', 1 / 3600, 1, 'udunits2-base.xml "m", "s"'],
      ['m s-1', 0.001 / 3600, 1, 'udunits2-base.xml "m", "s"'],
    ],
    [
      ['Mm h-1', 'megametres per hour'],
      ['MM H-1', 'no unit'],
      ['mm HR-1', 'no unit: the symbol is "hr"'],
      ['KG M-2 S-1', 'no unit'],
      ['Kg m-2 s-1', 'no unit'],
      ['M s-1', 'no unit'],
      ['kg/m2s', 'no unit: "m2s" is one identifier'],
    ],
  );

  describeUnits(
    'wind_speed',
    [
      ['m s-1', 5, 5, 'udunits2-base.xml "m", "s"'],
      ['m/s', 5, 5, 'udunits2-base.xml "m", "s"'],
      ['meters per second', 5, 5, 'udunits2-base.xml, names "meter", "second" with plurals'],
      ['metre/second', 5, 5, 'udunits2-base.xml, names "metre", "second"'],
      ['km/h', 36, 10, 'udunits2-base.xml "m", prefix "k"; udunits2-accepted.xml "h"'],
      ['km h-1', 36, 10, 'as "km/h"'],
      ['km/hr', 36, 10, 'udunits2-accepted.xml, symbol "hr"'],
      ['kilometres per hour', 36, 10, 'udunits2-base.xml "metre", prefix name "kilo"; "hour"'],
      ['kt', 10, 1852 / 360, 'udunits2-common.xml, symbol "kt"'],
      ['kts', 10, 1852 / 360, 'udunits2-common.xml, symbol "kts"'],
      ['knot', 10, 1852 / 360, 'udunits2-accepted.xml, name "knot"'],
      ['Knots', 10, 1852 / 360, 'udunits2-accepted.xml, plural of "knot" in any case'],
      ['international_knot', 10, 1852 / 360, 'udunits2-accepted.xml, name "international_knot"'],
    ],
    [
      ['M/S', 'no unit'],
      ['m/S', 'no unit'],
      ['KM/H', 'no unit'],
      ['Km/h', 'no unit'],
      ['KT', 'no unit'],
      ['Kt', 'no unit'],
      ['KTS', 'no unit'],
      ['Mm/h', 'megametres per hour'],
    ],
  );

  describeUnits(
    'surface_downwelling_shortwave_flux_in_air',
    [
      ['W m-2', 340, 340, 'udunits2-derived.xml "W"; udunits2-base.xml "m"'],
      ['W/m2', 340, 340, 'UDUNITS-2 grammar, "/" divides'],
      ['W m^-2', 340, 340, 'UDUNITS-2 grammar, "^" raises'],
      ['W.m-2', 340, 340, 'UDUNITS-2 grammar, "." multiplies'],
      ['watt m-2', 340, 340, 'udunits2-derived.xml, name "watt"'],
      ['Watts/m2', 340, 340, 'udunits2-derived.xml, plural of "watt" in any case'],
    ],
    [
      ['w m-2', 'no unit: the symbol is "W"'],
      ['w/m2', 'no unit: the symbol is "W"'],
      ['W M-2', 'no unit'],
    ],
  );

  describeUnits(
    'surface_altitude',
    [
      ['m', 812, 812, 'udunits2-base.xml, symbol "m"'],
      ['meter', 812, 812, 'udunits2-base.xml, name "meter"'],
      ['Meters', 812, 812, 'udunits2-base.xml, plural of "meter" in any case'],
      ['metre', 812, 812, 'udunits2-base.xml, name "metre"'],
      ['METRES', 812, 812, 'udunits2-base.xml, plural of "metre" in any case'],
      ['km', 0.812, 812, 'udunits2-base.xml "m", prefix symbol "k"'],
      ['kilometre', 0.812, 812, 'udunits2-base.xml "metre", prefix name "kilo"'],
      ['Kilometers', 0.812, 812, 'udunits2-base.xml "meter", plural, names in any case'],
    ],
    [
      ['M', 'no unit'],
      ['KM', 'no unit'],
      ['Km', 'no unit'],
      ['MM', 'no unit'],
      ['Mm', 'the megametre'],
    ],
  );

  it.each(VARIABLE_IDS)("reads %s's canonical units as themselves", (variable) => {
    expect(unitConversion(variable, CANONICAL_UNITS[variable])).toEqual({ scale: 1, offset: 0 });
  });
});
