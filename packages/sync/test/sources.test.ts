/**
 * The sources' layouts, steps and base URLs. Expected paths are spelled out
 * from NOAA's and ECMWF's published naming, not computed by the code under test.
 */
import { SOURCES, SyncConfigError, sourceBaseUrl, sourceUrlVariable, stepUrls } from '../src/index.js';

const RUN = Date.UTC(2026, 11, 3, 6);

describe('source layouts', () => {
  it('puts a GFS step at gfs.YYYYMMDD/HH/atmos/gfs.tHHz.pgrb2.0p25.fFFF with its .idx beside it', () => {
    expect(stepUrls(SOURCES['gfs-0p25'], 'http://h/base', RUN, 7)).toEqual({
      file: 'http://h/base/gfs.20261203/06/atmos/gfs.t06z.pgrb2.0p25.f007',
      inventory: 'http://h/base/gfs.20261203/06/atmos/gfs.t06z.pgrb2.0p25.f007.idx',
    });
  });

  it('puts an ECMWF step at YYYYMMDD/HHz/ifs/0p25/oper/YYYYMMDDHH0000-<step>h-oper-fc.grib2 with its .index', () => {
    expect(stepUrls(SOURCES['ecmwf-ifs-0p25'], 'http://h', Date.UTC(2026, 11, 3, 12), 150)).toEqual({
      file: 'http://h/20261203/12z/ifs/0p25/oper/20261203120000-150h-oper-fc.grib2',
      inventory: 'http://h/20261203/12z/ifs/0p25/oper/20261203120000-150h-oper-fc.index',
    });
  });

  // ecmwf/ecmwf-opendata tests/test_stream.py: before IFS cycle 50r1 (2026-05-12) the 06/18 UTC
  // runs are stream scda; from it, oper.
  it('uses stream scda for 06 and 18 UTC ECMWF runs before 2026-05-12, oper from then on', () => {
    const ecmwf = SOURCES['ecmwf-ifs-0p25'];
    expect(stepUrls(ecmwf, 'http://h', Date.UTC(2026, 4, 11, 18), 3).file).toBe(
      'http://h/20260511/18z/ifs/0p25/scda/20260511180000-3h-scda-fc.grib2',
    );
    expect(stepUrls(ecmwf, 'http://h', Date.UTC(2026, 4, 11, 12), 3).file).toBe(
      'http://h/20260511/12z/ifs/0p25/oper/20260511120000-3h-oper-fc.grib2',
    );
    expect(stepUrls(ecmwf, 'http://h', Date.UTC(2026, 4, 12, 6), 3).file).toBe(
      'http://h/20260512/06z/ifs/0p25/oper/20260512060000-3h-oper-fc.grib2',
    );
  });

  it("knows each run's steps: GFS hourly to 120 h then 3-hourly to 384 h; ECMWF 3-hourly to 144 h then 6-hourly to 240 h at 00/12, to 90 h at 06/18", () => {
    const gfs = SOURCES['gfs-0p25'].steps(18);
    expect([gfs.length, gfs.slice(118, 123), gfs.at(-1)]).toEqual([121 + 88, [118, 119, 120, 123, 126], 384]);
    const long = SOURCES['ecmwf-ifs-0p25'].steps(0);
    expect([long.length, long.slice(47, 51), long.at(-1)]).toEqual([49 + 16, [141, 144, 150, 156], 240]);
    const short = SOURCES['ecmwf-ifs-0p25'].steps(6);
    expect([short.length, short.at(-1)]).toEqual([31, 90]);
  });

  it('refuses a run hour, minute or step the source does not write', () => {
    const ecmwf = SOURCES['ecmwf-ifs-0p25'];
    expect(() => stepUrls(ecmwf, 'http://h', Date.UTC(2026, 11, 3, 3), 0)).toThrow(/no run at 2026-12-03T03:00/);
    expect(() => stepUrls(ecmwf, 'http://h', Date.UTC(2026, 11, 3, 0, 30), 0)).toThrow(SyncConfigError);
    expect(() => stepUrls(ecmwf, 'http://h', Date.UTC(2026, 11, 3, 6), 96)).toThrow(/no step 96 h for the 06Z run/);
    expect(() => stepUrls(SOURCES['gfs-0p25'], 'http://h', RUN, 121)).toThrow(/no step 121 h/);
  });
});

describe('base URLs', () => {
  it('names the variable after the source', () => {
    expect(sourceUrlVariable('gfs-0p25')).toBe('FIELDCAST_SOURCE_GFS_0P25_URL');
    expect(sourceUrlVariable('ecmwf-ifs-0p25')).toBe('FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL');
  });

  it('defaults to the public archives and takes the variable when set, without a trailing slash', () => {
    expect(sourceBaseUrl('gfs-0p25', {})).toBe('https://noaa-gfs-bdp-pds.s3.amazonaws.com');
    expect(sourceBaseUrl('ecmwf-ifs-0p25', {})).toBe('https://data.ecmwf.int/forecasts');
    expect(sourceBaseUrl('ecmwf-ifs-0p25', { FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL: 'http://127.0.0.1:9000/mirror/' })).toBe(
      'http://127.0.0.1:9000/mirror',
    );
    expect(sourceBaseUrl('gfs-0p25', { FIELDCAST_SOURCE_GFS_0P25_URL: '  ' })).toBe('https://noaa-gfs-bdp-pds.s3.amazonaws.com');
  });

  it('refuses a base URL that is not http(s) or carries a query, naming the variable', () => {
    expect(() => sourceBaseUrl('gfs-0p25', { FIELDCAST_SOURCE_GFS_0P25_URL: 'ftp://x/y' })).toThrow(
      /FIELDCAST_SOURCE_GFS_0P25_URL is not an http\(s\) URL/,
    );
    expect(() => sourceBaseUrl('gfs-0p25', { FIELDCAST_SOURCE_GFS_0P25_URL: 'not a url' })).toThrow(SyncConfigError);
    expect(() => sourceBaseUrl('gfs-0p25', { FIELDCAST_SOURCE_GFS_0P25_URL: 'http://x/?a=1' })).toThrow(/query/);
  });
});
