/**
 * Units strings read as UDUNITS-2 reads them (the units library CF conventions 1.11 section 3.1
 * names): which of the units the conversions are written in a string names, with what power.
 * Only those units are known; a static table, so nothing is read from UDUNITS' own files at run
 * time (docs/decisions/0373-units-read-as-udunits-reads-them.md).
 */

/** UDUNITS spellings normalised: single spaces, "m**-2"/"m^-2" folded to "m-2"; the case kept. */
export function normaliseUnits(units: string): string {
  return units
    .trim()
    .replace(/\*\*|\^/g, '')
    .replace(/\s+/g, ' ');
}

/**
 * The SI prefixes of UDUNITS-2 (udunits2-prefixes.xml). A prefix name ("kilo") is matched in any
 * case and a prefix symbol ("k") by its case (UDUNITS-2 C API guide, ut_add_name_prefix and
 * ut_add_symbol_prefix): "M" is mega and "m" milli.
 */
const PREFIXES: readonly { value: number; name: string; symbols: readonly string[] }[] = [
  { value: 1e24, name: 'yotta', symbols: ['Y'] },
  { value: 1e21, name: 'zetta', symbols: ['Z'] },
  { value: 1e18, name: 'exa', symbols: ['E'] },
  { value: 1e15, name: 'peta', symbols: ['P'] },
  { value: 1e12, name: 'tera', symbols: ['T'] },
  { value: 1e9, name: 'giga', symbols: ['G'] },
  { value: 1e6, name: 'mega', symbols: ['M'] },
  { value: 1e3, name: 'kilo', symbols: ['k'] },
  { value: 1e2, name: 'hecto', symbols: ['h'] },
  { value: 1e1, name: 'deka', symbols: ['da'] },
  { value: 1e-1, name: 'deci', symbols: ['d'] },
  { value: 1e-2, name: 'centi', symbols: ['c'] },
  { value: 1e-3, name: 'milli', symbols: ['m'] },
  { value: 1e-6, name: 'micro', symbols: ['\u00b5', '\u03bc', 'u'] },
  { value: 1e-9, name: 'nano', symbols: ['n'] },
  { value: 1e-12, name: 'pico', symbols: ['p'] },
  { value: 1e-15, name: 'femto', symbols: ['f'] },
  { value: 1e-18, name: 'atto', symbols: ['a'] },
  { value: 1e-21, name: 'zepto', symbols: ['z'] },
  { value: 1e-24, name: 'yocto', symbols: ['y'] },
];

/**
 * The UDUNITS-2 units the conversions below are written in, each with every symbol and name
 * UDUNITS-2 gives it (the file is named beside each). Symbols are case-sensitive and names are not
 * (UDUNITS-2 C API guide, ut_get_unit_by_name and ut_get_unit_by_symbol), so "Pa" is
 * the pascal while "PA" is the peta-ampere and "pa" the pico-are. `key` is how the conversions
 * spell the unit: its symbol, or its name where it has none (the bar). A name given without its
 * plural has the plural UDUNITS-2 forms itself (ut_form_plural in xml.c).
 */
const UNITS: readonly { key: string; symbols: readonly string[]; names: readonly (string | readonly [string, string])[] }[] = [
  // udunits2-base.xml; the alias "metre" there.
  { key: 'm', symbols: ['m'], names: ['meter', 'metre'] },
  // udunits2-base.xml; "sec" udunits2-common.xml.
  { key: 's', symbols: ['s'], names: ['second', 'sec'] },
  // udunits2-base.xml. The gram ("g", udunits2-derived.xml) is left out: no conversion takes it.
  { key: 'kg', symbols: ['kg'], names: ['kilogram'] },
  // udunits2-accepted.xml: "h" and "hr".
  { key: 'h', symbols: ['h', 'hr'], names: ['hour'] },
  // udunits2-derived.xml.
  { key: 'Pa', symbols: ['Pa'], names: ['pascal'] },
  // udunits2-accepted.xml: a name and no symbol ("b" is the barn, so "mb" is a millibarn).
  { key: 'bar', symbols: [], names: ['bar'] },
  // udunits2-derived.xml.
  { key: 'W', symbols: ['W'], names: ['watt'] },
  // Names udunits2-accepted.xml, symbols "kt" and "kts" udunits2-common.xml.
  { key: 'kt', symbols: ['kt', 'kts'], names: ['international_knot', 'knot_international', 'knot'] },
  // udunits2-base.xml; "°K" and the names udunits2-common.xml.
  {
    key: 'K',
    symbols: ['K', '\u00b0K'],
    names: [
      'kelvin',
      ['degree_kelvin', 'degrees_kelvin'],
      ['degree_K', 'degrees_K'],
      ['degreeK', 'degreesK'],
      ['deg_K', 'degs_K'],
      ['degK', 'degsK'],
    ],
  },
  // "°C" and "degree_Celsius" udunits2-derived.xml; "℃" and the other names udunits2-common.xml.
  {
    key: '\u00b0C',
    symbols: ['\u00b0C', '\u2103'],
    names: [
      ['degree_Celsius', 'degrees_Celsius'],
      'celsius',
      ['degree_C', 'degrees_C'],
      ['degreeC', 'degreesC'],
      ['deg_C', 'degs_C'],
      ['degC', 'degsC'],
    ],
  },
  // udunits2-common.xml.
  {
    key: '\u00b0F',
    symbols: ['\u00b0F', '\u2109'],
    names: [
      'fahrenheit',
      ['degree_fahrenheit', 'degrees_fahrenheit'],
      ['degreeF', 'degreesF'],
      ['degree_F', 'degrees_F'],
      ['degF', 'degsF'],
      ['deg_F', 'degs_F'],
    ],
  },
];

/** The plural UDUNITS-2 forms of a name given without one (ut_form_plural, xml.c). */
function pluralOf(singular: string): string {
  if (singular.length === 1) return `${singular}s`;
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  if (/([sxz]|ch|sh)$/.test(singular)) return `${singular}es`;
  return `${singular}s`;
}

const UNIT_BY_SYMBOL = new Map(UNITS.flatMap((u) => u.symbols.map((s) => [s, u.key] as const)));
const UNIT_BY_NAME = new Map(
  UNITS.flatMap((u) =>
    u.names.flatMap((n) => (typeof n === 'string' ? [n, pluralOf(n)] : n).map((name) => [name.toLowerCase(), u.key] as const)),
  ),
);

/**
 * The key of one identifier of a units string ("kilometres" is "km", "mbar" is "mbar"), or null
 * when it is no unit the conversions are written in. It follows UDUNITS-2's reading of an
 * identifier (parser.y, basic_exp): the whole as a name, else as a symbol, else a prefix name
 * (any number of them) or a prefix symbol (one, the longest that matches) taken off the front and
 * the rest read again, as a name or a symbol. So "millibar" and "mbar" are the millibar, "Mm" the
 * megametre and "MBAR" the megabar.
 */
function unitKey(id: string): string | null {
  let factor = 1;
  let symbolPrefixSeen = false;
  for (let rest = id; rest !== '';) {
    const key = UNIT_BY_NAME.get(rest.toLowerCase()) ?? UNIT_BY_SYMBOL.get(rest);
    if (key !== undefined) {
      // A stack of prefixes ("kilokm") counts as the one SI prefix its product is, if any.
      if (Math.abs(factor - 1) < 1e-9) return key;
      const prefix = PREFIXES.find((p) => Math.abs(p.value / factor - 1) < 1e-9);
      return prefix ? `${prefix.symbols[0]}${key}` : null;
    }
    const byName = PREFIXES.find((p) => rest.toLowerCase().startsWith(p.name));
    const bySymbol = symbolPrefixSeen
      ? undefined
      : PREFIXES.flatMap((p) => p.symbols.filter((s) => rest.startsWith(s)).map((symbol) => ({ value: p.value, symbol }))).sort(
          (a, b) => b.symbol.length - a.symbol.length,
        )[0];
    if (byName) {
      factor *= byName.value;
      rest = rest.slice(byName.name.length);
    } else if (bySymbol) {
      symbolPrefixSeen = true;
      factor *= bySymbol.value;
      rest = rest.slice(bySymbol.symbol.length);
    } else return null;
  }
  return null;
}

/** An identifier as UDUNITS-2 scans one (its grammar, "ID"): letters, "_", and the Latin-1 letters and signs it admits. */
const IDENTIFIER = '[A-Za-z_\\u00b0\\u00b5\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u00ff\\u03bc\\u2103\\u2109]+';
/** One factor: an operator (none first; multiply by " ", ".", "*" or "·", divide by "/"), an identifier, an integer power. */
const FACTOR = new RegExp(`(^|[ .*\\u00b7]|/)(${IDENTIFIER})([+-]?\\d+)?`, 'y');

/**
 * A units string in the one spelling the conversions are keyed by: each unit by its key with its
 * power, sorted, so "mm/hr", "millimetres per hour" and "h-1 mm" are all "h-1 mm". Null when
 * UDUNITS-2 would read some identifier as no unit the conversions are written in. Only products
 * of powers are read (UDUNITS-2 grammar, Product-Spec; "/" divides by the factor after it alone),
 * and the dimensionless "1". Numbers, parentheses and offsets ("K @ 273.15") are not.
 */
export function unitsSpelling(units: string): string | null {
  const spelled = normaliseUnits(units)
    .replace(/ per /gi, '/')
    .replace(/ ?\/ ?/g, '/');
  if (spelled === '' || spelled === '1') return spelled;
  const powers = new Map<string, number>();
  FACTOR.lastIndex = 0;
  while (FACTOR.lastIndex < spelled.length) {
    const at = FACTOR.lastIndex;
    const m = FACTOR.exec(spelled);
    if (!m || (at === 0) !== (m[1] === '')) return null;
    const key = unitKey(m[2]!);
    if (key === null) return null;
    const power = Number(m[3] ?? 1) * (m[1] === '/' ? -1 : 1);
    powers.set(key, (powers.get(key) ?? 0) + power);
  }
  return [...powers]
    .filter(([, power]) => power !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, power]) => (power === 1 ? key : `${key}${power}`))
    .join(' ');
}
