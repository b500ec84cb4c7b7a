import { calendarMs } from '@fieldcast/calendar';
import { fieldcastId } from '@fieldcast/ids';
import { csvRecords } from './csv-records.js';

/**
 * Storm reports as the NOAA Storm Prediction Center publishes them, one CSV file per type and
 * convective day (docs/decisions/0174-ingested-storm-reports.md):
 *
 *     Time,Size,Location,County,State,Lat,Lon,Comments        (hail: hundredths of an inch)
 *     Time,Speed,Location,County,State,Lat,Lon,Comments       (wind: mph)
 *     Time,F_Scale,Location,County,State,Lat,Lon,Comments     (tornado: EF rating)
 *
 * Time is HHMM in Central Standard Time (UTC-6) within the convective day, 12Z to 12Z: 0600 to
 * 2359 fall on the file's date, 0000 to 0559 on the next. A magnitude may be `UNK`. Comments are
 * the rest of the line (the SPC writes them unquoted, commas and all); a field in double quotes
 * is read as RFC 4180 says.
 */
export const REPORT_FILE_TYPES = ['hail', 'wind', 'tornado'] as const;
export type ReportFileType = (typeof REPORT_FILE_TYPES)[number];

/** The second column of each type's header. */
const MAGNITUDE_COLUMN: Record<ReportFileType, string> = { hail: 'Size', wind: 'Speed', tornado: 'F_Scale' };

export function headerOf(type: ReportFileType): string {
  return `Time,${MAGNITUDE_COLUMN[type]},Location,County,State,Lat,Lon,Comments`;
}

export function isReportFileType(value: string): value is ReportFileType {
  return (REPORT_FILE_TYPES as readonly string[]).includes(value);
}

/** One valid row, in the units the synthetic world's reports use (mm, m s-1, EF). */
export interface ParsedReport {
  id: string;
  reportType: ReportFileType;
  timeMs: number;
  lat: number;
  lon: number;
  /** null where the file says UNK */
  magnitude: number | null;
  unit: 'mm' | 'm s-1' | 'EF';
  /** Location, County, State */
  place: string;
  remarks: string;
}

export interface RowFault {
  /** 1-based line of the file; absent for a fault of the whole input */
  line?: number;
  message: string;
}

/** Everything wrong with a file, each fault with its line: nothing of such a file is stored. */
export class StormReportFileError extends Error {
  constructor(readonly faults: RowFault[]) {
    const shown = faults.slice(0, MAX_FAULTS_SHOWN).map((f) => (f.line === undefined ? f.message : `line ${f.line}: ${f.message}`));
    const more = faults.length > MAX_FAULTS_SHOWN ? [`and ${faults.length - MAX_FAULTS_SHOWN} more faults`] : [];
    super(['nothing was stored:', ...shown, ...more].join('\n  '));
  }
}

const MAX_FAULTS_SHOWN = 20;
const MINUTE_MS = 60_000;
const MS_PER_MPH = 0.44704;
/** The convective day starts at 12Z, 0600 CST. */
const CST_OFFSET_MIN = 6 * 60;
const DAY_MIN = 24 * 60;
/** 12Z of a convective day `YYYY-MM-DD`, epoch ms; a fault when it is no calendar date. */
export function convectiveDayStart(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const ms = m ? calendarMs(Number(m[1]), Number(m[2]), Number(m[3]), 12) : null;
  if (ms === null)
    throw new StormReportFileError([{ message: `the date "${date}" is not a calendar date YYYY-MM-DD (the convective day, 12Z to 12Z)` }]);
  return ms;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function magnitudeOf(type: ReportFileType, text: string): { value: number | null } | string {
  if (text === 'UNK') return { value: null };
  switch (type) {
    case 'hail':
      if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > 1000)
        return `Size "${text}" is not a hail size in hundredths of an inch (1 to 1000, e.g. 175 for 1.75 in) or UNK`;
      // 1 in is 25.4 mm exactly: hundredths of an inch times 254 are micrometres; to tenths of a mm in integers.
      return { value: Math.round((Number(text) * 254) / 100) / 10 };
    case 'wind':
      if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > 300)
        return `Speed "${text}" is not a wind speed in mph (1 to 300) or UNK`;
      return { value: Math.round(Number(text) * MS_PER_MPH * 10) / 10 };
    case 'tornado':
      if (!/^[0-5]$/.test(text)) return `F_Scale "${text}" is not an EF rating (0 to 5) or UNK`;
      return { value: Number(text) };
  }
}

const UNIT: Record<ReportFileType, ParsedReport['unit']> = { hail: 'mm', wind: 'm s-1', tornado: 'EF' };

/**
 * The reports of one SPC file of `type` for the convective day `date`. Every row is checked and
 * every fault gathered (StormReportFileError), so a file is taken whole or not at all. Blank
 * lines are skipped. Ids are UUID v5 of the type, day, time, place and the row's occurrence
 * among identical ones, so the same file read again gives the same ids.
 */
export function parseStormReportCsv(text: string, type: ReportFileType, date: string): ParsedReport[] {
  const dayStart = convectiveDayStart(date);
  // records, not lines: a quoted field may hold line breaks (RFC 4180 section 2.6)
  const records = csvRecords(text.replace(/^\uFEFF/, ''));
  const faults: RowFault[] = [];
  const header = (records[0]?.raw ?? '')
    .split(',')
    .map((h) => h.trim())
    .join(',');
  if (header !== headerOf(type)) {
    const other = REPORT_FILE_TYPES.find((t) => headerOf(t) === header);
    throw new StormReportFileError([
      {
        line: 1,
        message: other
          ? `the header is that of a ${other} file; --type ${type} needs "${headerOf(type)}"`
          : `the header must be "${headerOf(type)}" (the SPC's ${type} reports), not "${records[0]?.raw ?? ''}"`,
      },
    ]);
  }
  const reports: ParsedReport[] = [];
  const seen = new Map<string, number>();
  records.forEach(({ line, raw, fields }, index) => {
    if (index === 0 || raw.trim() === '') return;
    if (!fields) return void faults.push({ line, message: 'a quoted field is not closed, or text follows its closing quote' });
    if (fields.length < 8) return void faults.push({ line, message: `${fields.length} fields; a row has 8: ${headerOf(type)}` });
    const [time, magnitudeText, location, county, state, latText, lonText] = fields.slice(0, 7).map((f) => f.trim()) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const comments = fields.slice(7).join(',').trim();
    const rowFaults: string[] = [];
    const hhmm = /^\d{3,4}$/.test(time) ? time.padStart(4, '0') : '';
    const minutes = Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2));
    if (!hhmm || Number(hhmm.slice(0, 2)) > 23 || Number(hhmm.slice(2)) > 59)
      rowFaults.push(`Time "${time}" is not HHMM (0000 to 2359, Central Standard Time)`);
    const magnitude = magnitudeOf(type, magnitudeText);
    if (typeof magnitude === 'string') rowFaults.push(magnitude);
    if (location === '') rowFaults.push('Location is empty');
    if (!/^[A-Z]{2}$/.test(state)) rowFaults.push(`State "${state}" is not a two-letter code`);
    const lat = DECIMAL.test(latText) ? Number(latText) : NaN;
    const lon = DECIMAL.test(lonText) ? Number(lonText) : NaN;
    if (!(lat >= -90 && lat <= 90)) rowFaults.push(`Lat "${latText}" is not a latitude in decimal degrees (-90 to 90)`);
    if (!(lon >= -180 && lon <= 180)) rowFaults.push(`Lon "${lonText}" is not a longitude in decimal degrees (-180 to 180, west negative)`);
    if (rowFaults.length > 0 || typeof magnitude === 'string') return void faults.push({ line, message: rowFaults.join('; ') });
    const key = `${type}:${date}:${hhmm}:${lat}:${lon}:${location}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    reports.push({
      id: fieldcastId('storm-report', `${key}:${occurrence}`),
      reportType: type,
      timeMs: dayStart + ((minutes - CST_OFFSET_MIN + DAY_MIN) % DAY_MIN) * MINUTE_MS,
      lat,
      lon,
      magnitude: magnitude.value,
      unit: UNIT[type],
      place: [location, county, state].filter(Boolean).join(', '),
      remarks: comments,
    });
  });
  if (faults.length > 0) throw new StormReportFileError(faults);
  return reports;
}
