// RFC 3339 section 5.6: "Per [ABNF] and ISO8601, the "T" and "Z" characters in this syntax may
// alternatively be lower case". The observation sets and the archive read them so; every other
// area that takes a time reads the same text the same way (decision 0523).
import { EventInput, hourlyTimeMs, ModelTimeSeriesQuery, ProductsQuery } from '../src/index.js';

const UPPER = '2026-05-01T06:00:00Z';
const LOWER = '2026-05-01t06:00:00z';

describe('a time written with lower-case t and z is the same time', () => {
  it('in the insight area: an hourly series start and end', () => {
    expect(hourlyTimeMs(LOWER, 'start')).toBe(Date.parse(UPPER));
    expect(hourlyTimeMs('2026-05-01t06:00z', 'end')).toBe(Date.parse(UPPER));
  });

  it('in the model area: a time series start and end', () => {
    expect(ModelTimeSeriesQuery.parse({ start: LOWER, end: '2026-05-01t07:00:00.5+00:00' })).toMatchObject({
      start: Date.parse(UPPER),
      end: Date.parse('2026-05-01T07:00:00.500Z'),
    });
  });

  it('in the platform area: a products filter, with an offset too', () => {
    expect(ProductsQuery.parse({ start: LOWER, end: '2026-05-01t08:00+02:00' })).toMatchObject({
      start: Date.parse(UPPER),
      end: Date.parse(UPPER),
    });
  });

  it('in the events area: an occurrenceTime', () => {
    const body = { app: 'demo', namespace: 'farm/notes', message: 'm', occurrenceTime: LOWER };
    expect(new Date(EventInput.parse(body).occurrenceTime!).toISOString()).toBe('2026-05-01T06:00:00.000Z');
  });

  it('while a lower-case letter anywhere else is still no time', () => {
    expect(hourlyTimeMs('2026-05-01x06:00:00z', 'start')).toBeNaN();
    expect(ModelTimeSeriesQuery.safeParse({ start: '2026-05-01T06:00:00y' }).success).toBe(false);
  });
});
