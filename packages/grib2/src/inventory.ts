/**
 * The inventories that let a sync fetch only the messages it needs, by HTTP Range: a run's file
 * holds every parameter, and one step's wanted fields are a small share of its bytes.
 *
 * NOAA's `.idx` beside each GFS file is wgrib2's short inventory, one line per field:
 * `n:offset:d=YYYYMMDDHH:VAR:LEVEL:FORECAST:` (more colon-separated descriptions may follow, such
 * as an ensemble's or a probability's). Fields that share a message are numbered `n.1`, `n.2` and
 * share its offset. A message runs to the next message's offset; the last to the end of the file.
 *
 * ECMWF open data's `.index` beside each file has one JSON object per message, its MARS keys as
 * strings (`param`, `levtype`, `step`, `date`, `time`, optionally `levelist`, ...) plus `_offset`
 * and `_length` in bytes.
 */
import { calendarMs } from '@fieldcast/calendar';
import { GribError } from './errors.js';

/** A byte range of the GRIB2 file; `length` null for the last message (to the end of the file). */
export interface ByteRange {
  offset: number;
  length: number | null;
}

export interface IdxEntry extends ByteRange {
  /** The message's number, and the field's within it (1, 2, ... for `n.1`, `n.2`; null for `n`). */
  message: number;
  field: number | null;
  referenceTimeMs: number;
  /** wgrib2's names: `TMP`, `2 m above ground`, `6 hour fcst`, `0-6 hour acc fcst`, `anl`. */
  variable: string;
  level: string;
  forecast: string;
  /** Descriptions after the forecast, if any. */
  extra: string[];
}

const IDX_LINE = /^(\d+)(?:\.(\d+))?:(\d+):d=(\d{4})(\d{2})(\d{2})(\d{2}):([^:]+):([^:]+):([^:]+):(.*)$/;

/** The entries of a GFS `.idx`, in file order, each with the byte range of its message. */
export function parseIdx(text: string): IdxEntry[] {
  const entries: IdxEntry[] = [];
  text.split('\n').forEach((raw, k) => {
    const line = raw.trim();
    if (line === '') return;
    const m = IDX_LINE.exec(line);
    if (!m) throw new GribError(`.idx line ${k + 1} is not "n:offset:d=YYYYMMDDHH:VAR:LEVEL:FORECAST:": ${line.slice(0, 120)}`);
    const [, message, field, offset, year, month, day, hour, variable, level, forecast, rest] = m;
    const referenceTimeMs = calendarMs(Number(year), Number(month), Number(day), Number(hour));
    if (referenceTimeMs === null) throw new GribError(`.idx line ${k + 1} has no valid date: d=${year}${month}${day}${hour}`);
    entries.push({
      message: Number(message),
      field: field === undefined ? null : Number(field),
      offset: Number(offset),
      length: null,
      referenceTimeMs,
      variable: variable!,
      level: level!,
      forecast: forecast!,
      extra: rest!.split(':').filter((s) => s !== ''),
    });
  });
  // A message ends where the next one starts; fields of one message share its range.
  for (let k = entries.length - 2; k >= 0; k--) {
    const [entry, next] = [entries[k]!, entries[k + 1]!];
    if (next.offset < entry.offset) throw new GribError(`.idx offsets go backwards at message ${next.message}`);
    entry.length = next.offset === entry.offset ? next.length : next.offset - entry.offset;
  }
  return entries;
}

export interface EcmwfIndexEntry extends ByteRange {
  length: number;
  param: string;
  levtype: string;
  /** `6`, or a range such as `0-6` for a statistic over an interval, in hours. */
  step: string;
  /** Every key of the line but `_offset` and `_length`, as strings (`date`, `time`, `levelist`, ...). */
  keys: Record<string, string>;
}

/** The entries of an ECMWF open data `.index`, in file order. */
export function parseEcmwfIndex(text: string): EcmwfIndexEntry[] {
  const entries: EcmwfIndexEntry[] = [];
  text.split('\n').forEach((raw, k) => {
    const line = raw.trim();
    if (line === '') return;
    let object: unknown;
    try {
      object = JSON.parse(line);
    } catch {
      throw new GribError(`.index line ${k + 1} is not JSON: ${line.slice(0, 120)}`);
    }
    if (typeof object !== 'object' || object === null || Array.isArray(object))
      throw new GribError(`.index line ${k + 1} is not a JSON object`);
    const { _offset: offset, _length: length, ...rest } = object as Record<string, unknown>;
    if (!Number.isSafeInteger(offset) || (offset as number) < 0 || !Number.isSafeInteger(length) || (length as number) <= 0) {
      throw new GribError(`.index line ${k + 1} has no byte range (_offset, _length)`);
    }
    const keys: Record<string, string> = {};
    for (const [key, value] of Object.entries(rest)) {
      if (typeof value === 'string' || typeof value === 'number') keys[key] = String(value);
    }
    for (const key of ['param', 'levtype', 'step'] as const) {
      if (keys[key] === undefined) throw new GribError(`.index line ${k + 1} has no ${key}`);
    }
    entries.push({
      offset: offset as number,
      length: length as number,
      param: keys.param!,
      levtype: keys.levtype!,
      step: keys.step!,
      keys,
    });
  });
  return entries;
}
