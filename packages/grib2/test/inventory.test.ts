/**
 * Inventory lines as the two sources publish them: NOAA's `.idx` is wgrib2's short inventory
 * (`wgrib2 -s`: `n:offset:d=YYYYMMDDHH:VAR:LEVEL:FORECAST:`, fields of one message numbered n.1,
 * n.2; the lines below follow a GFS 0.25° pgrb2 file's), ECMWF open data's `.index` one JSON
 * object per message (the keys below follow an IFS 0.25° oper file's, as the ecmwf-opendata
 * client reads them).
 */
import { GribError, parseEcmwfIndex, parseIdx } from '../src/index.js';

const GFS_IDX = [
  '1:0:d=2024031500:PRMSL:mean sea level:6 hour fcst:',
  '2:1004567:d=2024031500:TMP:2 m above ground:6 hour fcst:',
  '3.1:1800000:d=2024031500:UGRD:10 m above ground:6 hour fcst:',
  '3.2:1800000:d=2024031500:VGRD:10 m above ground:6 hour fcst:',
  '4:2500000:d=2024031500:APCP:surface:0-6 hour acc fcst:',
  '5:3000000:d=2024031500:TMP:2 m above ground:6 hour fcst:ens mean:',
  '',
].join('\n');

describe('parseIdx (GFS .idx)', () => {
  it('reads each field with its message, reference time, names and byte range', () => {
    const entries = parseIdx(GFS_IDX);
    const t0 = Date.UTC(2024, 2, 15, 0);
    expect(
      entries.map(({ message, field, offset, length, variable, level, forecast, extra }) => [
        message,
        field,
        offset,
        length,
        variable,
        level,
        forecast,
        extra,
      ]),
    ).toEqual([
      [1, null, 0, 1004567, 'PRMSL', 'mean sea level', '6 hour fcst', []],
      [2, null, 1004567, 795433, 'TMP', '2 m above ground', '6 hour fcst', []],
      [3, 1, 1800000, 700000, 'UGRD', '10 m above ground', '6 hour fcst', []],
      [3, 2, 1800000, 700000, 'VGRD', '10 m above ground', '6 hour fcst', []],
      [4, null, 2500000, 500000, 'APCP', 'surface', '0-6 hour acc fcst', []],
      [5, null, 3000000, null, 'TMP', '2 m above ground', '6 hour fcst', ['ens mean']],
    ]);
    expect(entries.every((e) => e.referenceTimeMs === t0)).toBe(true);
  });

  it.each([
    [
      'a line that is not an inventory line',
      '1:0:TMP:2 m above ground:anl:',
      /\.idx line 1 is not "n:offset:d=YYYYMMDDHH:VAR:LEVEL:FORECAST:"/,
    ],
    ['an impossible date', '1:0:d=2024023100:TMP:2 m above ground:anl:', /\.idx line 1 has no valid date: d=2024023100/],
    ['month 13', '1:0:d=2024131500:TMP:2 m above ground:anl:', /\.idx line 1 has no valid date: d=2024131500/],
    ['month 00', '1:0:d=2024001500:TMP:2 m above ground:anl:', /\.idx line 1 has no valid date: d=2024001500/],
    [
      'offsets that go backwards',
      '1:500:d=2024031500:TMP:2 m above ground:anl:\n2:100:d=2024031500:RH:2 m above ground:anl:',
      /\.idx offsets go backwards at message 2/,
    ],
  ])('names %s', (_name, text, message) => {
    expect(() => parseIdx(text)).toThrow(GribError);
    expect(() => parseIdx(text)).toThrow(message);
  });
});

const ECMWF_INDEX = [
  '{"domain": "g", "date": "20240315", "time": "0000", "expver": "0001", "class": "od", "type": "fc", "stream": "oper", "step": "6", "levtype": "sfc", "param": "2t", "_offset": 0, "_length": 609069}',
  '{"domain": "g", "date": "20240315", "time": "0000", "expver": "0001", "class": "od", "type": "fc", "stream": "oper", "step": "6", "levtype": "pl", "levelist": "850", "param": "t", "_offset": 609069, "_length": 712345}',
  '{"domain": "g", "date": "20240315", "time": "0000", "expver": "0001", "class": "od", "type": "fc", "stream": "oper", "step": "0-6", "levtype": "sfc", "param": "mx2t6", "_offset": 1321414, "_length": 598765}',
  '',
].join('\n');

describe('parseEcmwfIndex (ECMWF open data .index)', () => {
  it('reads each message with its keys and byte range', () => {
    const entries = parseEcmwfIndex(ECMWF_INDEX);
    expect(entries.map(({ param, levtype, step, offset, length }) => [param, levtype, step, offset, length])).toEqual([
      ['2t', 'sfc', '6', 0, 609069],
      ['t', 'pl', '6', 609069, 712345],
      ['mx2t6', 'sfc', '0-6', 1321414, 598765],
    ]);
    expect(entries[1]!.keys).toMatchObject({ date: '20240315', time: '0000', levelist: '850', stream: 'oper', type: 'fc' });
    expect(entries[1]!.keys).not.toHaveProperty('_offset');
  });

  it.each([
    ['a line that is not JSON', '{"param": "2t",', /\.index line 1 is not JSON/],
    ['a JSON value that is not an object', '[1, 2]', /\.index line 1 is not a JSON object/],
    ['a line with no byte range', '{"param": "2t", "levtype": "sfc", "step": "6", "_offset": 0}', /\.index line 1 has no byte range/],
    ['a line with no param', '{"levtype": "sfc", "step": "6", "_offset": 0, "_length": 10}', /\.index line 1 has no param/],
  ])('names %s', (_name, text, message) => {
    expect(() => parseEcmwfIndex(text)).toThrow(GribError);
    expect(() => parseEcmwfIndex(text)).toThrow(message);
  });
});
