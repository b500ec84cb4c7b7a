/**
 * Finding the wanted parameters in each source's inventory.
 */
import { parseEcmwfIndex, parseIdx } from '@fieldcast/grib2';
import { PARAMETERS } from '../src/index.js';
import { pickFromEcmwfIndex, pickFromIdx } from '../src/parameters.js';

describe('GFS .idx', () => {
  const idx = parseIdx(
    [
      '1:0:d=2026120306:TMP:2 m above ground:6 hour fcst:',
      '2:100:d=2026120306:TMP:850 mb:6 hour fcst:',
      '3:200:d=2026120306:APCP:surface:0-6 hour acc fcst:',
      '4:300:d=2026120306:APCP:surface:5-6 hour acc fcst:',
      '5.1:400:d=2026120306:UGRD:10 m above ground:6 hour fcst:',
      '5.2:400:d=2026120306:VGRD:10 m above ground:6 hour fcst:',
      '6:500:d=2026120306:PRES:surface:6 hour fcst:',
    ].join('\n'),
  );
  const picks = pickFromIdx(idx, PARAMETERS['gfs-0p25']);
  const of = (q: string) => picks.find((p) => p.parameter.quantity === q);

  it('matches the variable at its level only', () => {
    expect(of('temperature')).toMatchObject({ offset: 0, length: 100, fieldIndex: 0 });
    expect(of('dewpoint')).toBeUndefined();
  });

  it('takes, of one statistic over several intervals, the one starting last', () => {
    expect(of('precipitation')).toMatchObject({ offset: 300, length: 100 });
  });

  it('finds a field within a message of several (wgrib2 n.k is field k - 1)', () => {
    expect(of('wind_u')).toMatchObject({ offset: 400, length: 100, fieldIndex: 0 });
    expect(of('wind_v')).toMatchObject({ offset: 400, length: 100, fieldIndex: 1 });
    expect(of('pressure')).toMatchObject({ offset: 500, length: null });
  });
});

describe('ECMWF .index', () => {
  const line = (param: string, offset: number, levtype = 'sfc') =>
    JSON.stringify({ param, levtype, step: '6', _offset: offset, _length: 10 });
  const picks = pickFromEcmwfIndex(
    parseEcmwfIndex([line('t', 0, 'pl'), line('2t', 10), line('mx2t6', 20), line('mx2t3', 30), line('tp', 40)].join('\n')),
    PARAMETERS['ecmwf-ifs-0p25'],
  );
  const of = (q: string) => picks.find((p) => p.parameter.quantity === q);

  it('matches single-level parameters by their short name', () => {
    expect(of('temperature')).toMatchObject({ offset: 10, length: 10 });
    expect(of('precipitation')).toMatchObject({ offset: 40 });
    expect(of('shortwave')).toBeUndefined();
  });

  it('takes the extreme over the shortest period written', () => {
    expect(of('temperature_max')).toMatchObject({ offset: 30 });
  });
});
