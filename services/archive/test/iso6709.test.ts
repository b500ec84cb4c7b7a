import { formatPoint, LocationError, parsePlace } from '../src/domain/iso6709.js';

// ISO 6709:2008 Annex H, decimal degrees: ±DD.DDD then ±DDD.DDD (e.g. the standard's
// "+40.20361-075.00417" for Philadelphia); regions are the archive's two corners, north-east first.
describe('ISO 6709 locations (docs/interface.md §11)', () => {
  it.each([
    ['+39.7392-104.9903', 39.7392, -104.9903],
    ['-33.8688+151.2093', -33.8688, 151.2093],
    ['+40.20361-075.00417', 40.20361, -75.00417],
    ['+00.0+000.0', 0, 0],
    ['-00.5-000.25', -0.5, -0.25],
    ['+90-180', 90, -180],
    ['-90.000+180.000', -90, 180],
    ['+45+007', 45, 7],
  ])('reads the point %s', (text, lat, lon) => {
    expect(parsePlace(text)).toEqual({ kind: 'point', point: { lat, lon } });
  });

  it('reads a region written adjacent or comma-separated, north-east corner first', () => {
    const region = { kind: 'region', northEast: { lat: 40, lon: -104 }, southWest: { lat: 39, lon: -105.5 } };
    expect(parsePlace('+40.0-104.0+39.0-105.5')).toEqual(region);
    expect(parsePlace('+40.0-104.0,+39.0-105.5')).toEqual(region);
  });

  it.each([
    ['no signs', '39.7392,-104.9903'],
    ['one-digit latitude', '+9.5-104.9'],
    ['two-digit longitude', '+39.5-14.9'],
    ['a decimal point without decimals', '+39.-104.9'],
    ['a comma decimal', '+39,5-104,9'],
    ['spaces', '+39.5 -104.9'],
    ['a trailing solidus', '+39.5-104.9/'],
    ['latitude over 90', '+90.5-104.9'],
    ['longitude over 180', '+39.5-180.1'],
    ['three points', '+40-104+39-105+38-106'],
    ['an empty string', ''],
    ['an altitude', '+39.5-104.9+1600'],
  ])('refuses %s', (_name, text) => {
    expect(() => parsePlace(text)).toThrow(LocationError);
    expect(() => parsePlace(text)).toThrow(/±DD\.ddd±DDD\.ddd/);
  });

  it.each([
    ['south-west corner first', '+39.0-105.0+40.0-104.0'],
    ['latitudes swapped', '+39.0-104.0+40.0-105.0'],
    ['longitudes swapped', '+40.0-105.0+39.0-104.0'],
    ['no height', '+40.0-104.0+40.0-105.0'],
  ])('refuses a region with %s', (_name, text) => {
    expect(() => parsePlace(text)).toThrow(/north-east of its second/);
  });

  it('writes points back in the same form', () => {
    expect(formatPoint({ lat: 39.7392, lon: -104.9903 })).toBe('+39.7392-104.9903');
    expect(formatPoint({ lat: -5, lon: 7.25 })).toBe('-05.0000+007.2500');
    expect(parsePlace(formatPoint({ lat: -5, lon: 7.25 }))).toEqual({ kind: 'point', point: { lat: -5, lon: 7.25 } });
  });
});
