import { parseStormReportCsv, StormReportFileError } from '../src/domain/storm-report-csv.js';
import { reportFile } from './storm-report-files.js';

/** The faults a file is refused with. */
function faultsOf(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (err instanceof StormReportFileError) return err.faults;
    throw err;
  }
  throw new Error('the file was accepted');
}

describe('SPC storm report files (docs/decisions/0174-ingested-storm-reports.md)', () => {
  it('reads hail, wind and tornado rows in the archive’s units, times CST within the 12Z-12Z convective day', () => {
    const hail = parseStormReportCsv(
      reportFile('hail', [{ time: '1830', magnitude: '175', comments: 'Golf ball hail, with some damage, to cars. (OUN)' }]),
      'hail',
      '2025-05-19',
    );
    expect(hail).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        reportType: 'hail',
        timeMs: Date.parse('2025-05-20T00:30:00Z'), // 18:30 CST is 00:30Z the next day
        lat: 35.25,
        lon: -97.48,
        magnitude: 44.5, // 1.75 in
        unit: 'mm',
        place: '3 NW Norman, Cleveland, OK',
        remarks: 'Golf ball hail, with some damage, to cars. (OUN)',
      },
    ]);
    const [wind] = parseStormReportCsv(reportFile('wind', [{ time: '0600', magnitude: '65' }]), 'wind', '2025-05-19');
    expect(wind).toMatchObject({ reportType: 'wind', magnitude: 29.1, unit: 'm s-1', timeMs: Date.parse('2025-05-19T12:00:00Z') });
    // 0559 CST is the last minute of the convective day: 11:59Z the day after
    const [tornado, unknown] = parseStormReportCsv(
      reportFile('tornado', [
        { time: '0559', magnitude: '3' },
        { time: '2359', magnitude: 'UNK' },
      ]),
      'tornado',
      '2025-05-19',
    );
    expect(tornado).toMatchObject({ magnitude: 3, unit: 'EF', timeMs: Date.parse('2025-05-20T11:59:00Z') });
    expect(unknown).toMatchObject({ magnitude: null, timeMs: Date.parse('2025-05-20T05:59:00Z') });
  });

  it('takes CRLF line ends, a byte-order mark, blank lines, quoted fields and a header-only file', () => {
    const text = `\uFEFF${reportFile('hail', [{ location: '"1 E ""Twin"" Lakes"', comments: '"quoted, with commas"' }, {}], '\r\n')}\r\n\r\n`;
    const reports = parseStormReportCsv(text, 'hail', '2025-05-19');
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatchObject({ place: '1 E "Twin" Lakes, Cleveland, OK', remarks: 'quoted, with commas' });
    expect(parseStormReportCsv(reportFile('wind', []), 'wind', '2025-05-19')).toEqual([]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('reads a quoted field holding %s line breaks as one field of one record (RFC 4180 section 2.6)', (_, eol) => {
    const text = reportFile(
      'hail',
      [{ comments: `"Hail covered the road.${eol}Photos on social media${eol}(OUN)"` }, { location: '2 S Moore', comments: 'after' }],
      eol,
    );
    const reports = parseStormReportCsv(text, 'hail', '2025-05-19');
    expect(reports.map((r) => [r.place, r.remarks])).toEqual([
      ['3 NW Norman, Cleveland, OK', `Hail covered the road.${eol}Photos on social media${eol}(OUN)`],
      ['2 S Moore, Cleveland, OK', 'after'],
    ]);
    // a fault after such a record names the line it is on in the file
    const faulty = `${text}1830,100,"Norman" x,Cleveland,OK,35.2,-97.4,c${eol}1830,100,Norman${eol}`;
    expect(faultsOf(() => parseStormReportCsv(faulty, 'hail', '2025-05-19'))).toEqual([
      { line: 6, message: expect.stringMatching(/text follows its closing quote/) },
      { line: 7, message: expect.stringMatching(/^3 fields; a row has 8/) },
    ]);
  });

  it('gives the same ids to the same rows, and distinct ids to rows repeated in a file', () => {
    const text = reportFile('hail', [{}, {}, { time: '1831' }]);
    const ids = parseStormReportCsv(text, 'hail', '2025-05-19').map((r) => r.id);
    expect(new Set(ids).size).toBe(3);
    expect(parseStormReportCsv(text, 'hail', '2025-05-19').map((r) => r.id)).toEqual(ids);
    // another day or type is another report
    expect(parseStormReportCsv(text, 'hail', '2025-05-20')[0]!.id).not.toBe(ids[0]);
  });

  it.each([
    ['time', { time: '2460' }, /line 2: Time "2460" is not HHMM/],
    ['time not a number', { time: 'noon' }, /line 2: Time "noon" is not HHMM/],
    ['hail size', { magnitude: '1.75' }, /line 2: Size "1.75" is not a hail size in hundredths of an inch/],
    ['latitude', { lat: '95.2' }, /line 2: Lat "95.2" is not a latitude/],
    ['longitude', { lon: 'W97' }, /line 2: Lon "W97" is not a longitude/],
    ['state', { state: 'Oklahoma' }, /line 2: State "Oklahoma" is not a two-letter code/],
    ['location', { location: '' }, /line 2: Location is empty/],
  ])('refuses a row with a bad %s, naming its line', (_, row, message) => {
    const faults = faultsOf(() => parseStormReportCsv(reportFile('hail', [row]), 'hail', '2025-05-19'));
    expect(faults).toHaveLength(1);
    expect(() => parseStormReportCsv(reportFile('hail', [row]), 'hail', '2025-05-19')).toThrow(message);
  });

  it('refuses wind speeds and tornado ratings out of range', () => {
    expect(() => parseStormReportCsv(reportFile('wind', [{ magnitude: '0' }]), 'wind', '2025-05-19')).toThrow(
      /Speed "0" is not a wind speed in mph/,
    );
    expect(() => parseStormReportCsv(reportFile('tornado', [{ magnitude: '6' }]), 'tornado', '2025-05-19')).toThrow(
      /F_Scale "6" is not an EF rating/,
    );
  });

  it('refuses short rows and unclosed quotes, gathering every fault of the file with its line', () => {
    const text = `${reportFile('hail', [{}, { lat: 'x' }])}1830,100,Norman\n1830,100,"Norman,Cleveland,OK,35.2,-97.4,c\n`;
    const faults = faultsOf(() => parseStormReportCsv(text, 'hail', '2025-05-19'));
    expect(faults.map((f) => f.line)).toEqual([3, 4, 5]);
    expect(faults[1]!.message).toMatch(/3 fields; a row has 8: Time,Size,Location,County,State,Lat,Lon,Comments/);
    expect(faults[2]!.message).toMatch(/quoted field is not closed/);
  });

  it('refuses a file whose header is another type’s or none, and a date that is none', () => {
    expect(() => parseStormReportCsv(reportFile('wind', [{}]), 'hail', '2025-05-19')).toThrow(
      /line 1: the header is that of a wind file; --type hail needs "Time,Size,/,
    );
    expect(() => parseStormReportCsv('1830,100,Norman\n', 'hail', '2025-05-19')).toThrow(/line 1: the header must be "Time,Size,/);
    expect(() => parseStormReportCsv(reportFile('hail', [{}]), 'hail', '2025-02-30')).toThrow(/"2025-02-30" is not a calendar date/);
  });

  it('reads the date on the proleptic Gregorian calendar, a four-digit year as itself', () => {
    const hail = (date: string) => parseStormReportCsv(reportFile('hail', [{ time: '1830' }]), 'hail', date)[0]!.timeMs;
    expect(hail('2000-02-29')).toBe(Date.parse('2000-03-01T00:30:00Z')); // 2000 is a leap year (a century divisible by 400)
    expect(() => hail('1900-02-29')).toThrow(/"1900-02-29" is not a calendar date/); // 1900 is not
    // a year 0 to 99 is that year, not 1900 to 1999 as Date.UTC reads it
    expect(hail('0099-05-19')).toBe(Date.parse('0099-05-20T00:30:00Z'));
    expect(hail('0000-02-29')).toBe(Date.parse('0000-03-01T00:30:00Z'));
  });
});
