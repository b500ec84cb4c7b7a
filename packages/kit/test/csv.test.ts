import type { Request } from 'express';
import { csvText, prefersCsv } from '../src/csv.js';

/* RFC 4180 (section 2) as the CSV answers write it, and which Accept headers choose CSV over JSON. */
describe('csvText (RFC 4180)', () => {
  it('a header row, CRLF after every record, numbers as JSON writes them, empty cells for null', () => {
    expect(
      csvText({
        columns: ['latitude', 'value (mm/hr)'],
        rows: [
          [42.0308, 0.1],
          [-36.9, null],
          [1e21, undefined],
        ],
      }),
    ).toBe('latitude,value (mm/hr)\r\n42.0308,0.1\r\n-36.9,\r\n1e+21,\r\n');
  });

  it('fields with a comma, a double quote, CR or LF are quoted, their quotes doubled (RFC 4180 section 2, rules 6 and 7)', () => {
    const text = csvText({
      columns: ['name', 'note, with comma'],
      rows: [
        ['say "hi"', 'line\nbreak'],
        ['cr\rhere', 'plain'],
      ],
    });
    expect(text).toBe('name,"note, with comma"\r\n"say ""hi""","line\nbreak"\r\n"cr\rhere",plain\r\n');
  });

  it('a row of another width than the header is a programming error', () => {
    expect(() => csvText({ columns: ['a', 'b'], rows: [[1]] })).toThrow(/1 fields under a header of 2/);
  });
});

describe('prefersCsv', () => {
  const accept = (header?: string) => prefersCsv({ headers: header === undefined ? {} : { accept: header } } as Request);
  it.each([
    [undefined, false],
    ['*/*', false],
    ['application/json', false],
    ['text/csv', true],
    ['text/*', true],
    ['text/csv;q=0', false],
    ['text/csv, application/json', true],
    ['application/json, text/csv', false],
    ['application/json;q=0.5, text/csv', true],
    ['text/csv;q=0.5, application/vnd.fieldcast+json; version=1', false],
    ['text/csv;q=0.5, image/png', true],
  ])('Accept %s: %s', (header, csv) => {
    expect(accept(header)).toBe(csv);
  });
});
