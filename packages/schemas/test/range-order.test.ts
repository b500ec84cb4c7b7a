// A range whose start is after its end is refused on the same member in every area: `end`, the
// bound that falls short; a start given alone beyond a defaulted end names `start`, the parameter
// sent (docs/decisions/0031-degree-day-query.md).
import {
  chillQuerySchema,
  degreeDayQuerySchema,
  hourlyQuerySchema,
  ModelForecastListQuery,
  ModelTimeSeriesQuery,
  ProductsQuery,
  rangeOrderFault,
  TimeListQuery,
} from '../src/index.js';

const NOW = new Date('2025-06-15T12:00:00Z');
const now = () => NOW;

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.path.join('.'));

describe('a range out of order', () => {
  it('names end in the platform, model, insight and agriculture queries', () => {
    const instants = { start: '2025-06-02T00:00:00Z', end: '2025-06-01T00:00:00Z' };
    const dates = { start: '2025-06-02', end: '2025-06-01' };
    expect(paths(ProductsQuery.safeParse(instants))).toEqual(['end']);
    expect(paths(TimeListQuery.safeParse(instants))).toEqual(['end']);
    expect(paths(ModelForecastListQuery.safeParse(instants))).toEqual(['end']);
    expect(paths(ModelTimeSeriesQuery.safeParse(instants))).toEqual(['end']);
    expect(paths(hourlyQuerySchema(now, false).safeParse(instants))).toEqual(['end']);
    expect(paths(degreeDayQuerySchema(now).safeParse(dates))).toEqual(['end']);
    expect(paths(chillQuerySchema(now).safeParse(dates))).toEqual(['end']);
  });

  it('names start when the end was left to its default, the parameter the caller sent', () => {
    expect(paths(degreeDayQuerySchema(now).safeParse({ start: '2025-06-16' }))).toEqual(['start']);
    expect(paths(chillQuerySchema(now).safeParse({ start: '2025-06-16' }))).toEqual(['start']);
  });

  it('rangeOrderFault: end out of order, start for a defaulted end, none in order or open', () => {
    expect(rangeOrderFault(2, 1)).toBe('end');
    expect(rangeOrderFault(2n, 1n)).toBe('end');
    expect(rangeOrderFault(2, 1, { endGiven: false })).toBe('start');
    expect(rangeOrderFault(1, 1)).toBeUndefined();
    expect(rangeOrderFault(undefined, 1)).toBeUndefined();
    expect(rangeOrderFault(2, null)).toBeUndefined();
    expect(rangeOrderFault(Number.NaN, 1)).toBeUndefined();
  });
});
