import type { Request, Response } from 'express';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { jsonQuality, outranks, parseAccept, quality } from './negotiate.js';

/**
 * CSV answers (RFC 4180; docs/decisions/0243-csv-answers.md): a header row (left out for an
 * Accept of `text/csv;header=absent`, docs/decisions/0446-csv-header-parameter-and-file-name.md),
 * then one record per row, fields separated by commas and records by CRLF; a field holding a
 * comma, a double quote, CR or LF is enclosed in double quotes, its quotes doubled. No metadata
 * above the header.
 */

export const CSV_MEDIA_TYPE = 'text/csv';

/** One field: a number as JSON writes it, a string as it is, empty for null and undefined. */
export type CsvCell = string | number | null | undefined;

export interface CsvTable {
  /** the header row; a column with a unit names it in parentheses, "value (mm/hr)" */
  columns: readonly string[];
  rows: Iterable<readonly CsvCell[]>;
}

/**
 * How an operation's result is written as CSV (Operation.csv): what its rows are, for the OpenAPI
 * document, and the table, from the result and the request's parsed path parameters (a column
 * may be named by one) and query (settings the result's JSON does not repeat).
 */
export interface CsvForm {
  description: string;
  table(result: unknown, params: unknown, query: unknown): CsvTable;
}

/** A CSV form for results of type R (the operation's response schema), path parameters P and query Q. */
export function csvForm<R, P = unknown, Q = unknown>(description: string, table: (result: R, params: P, query: Q) => CsvTable): CsvForm {
  return { description, table: (result, params, query) => table(result as R, params as P, query as Q) };
}

/** What the answer holds besides the rows: the header row unless the Accept says header=absent. */
export interface CsvOptions {
  header: boolean;
}

const WITH_HEADER: CsvOptions = { header: true };

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * The first characters with which a spreadsheet runs a text cell as a formula (OWASP, CSV
 * Injection): such a cell (a site id as its caller typed it) is written after an apostrophe, which
 * the spreadsheet shows as text (docs/decisions/0447-csv-text-cells-never-formulas.md). A number
 * is written as a number, a negative one too: it is no text cell.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function field(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  const text = typeof cell === 'number' ? JSON.stringify(cell) : FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The table's records as RFC 4180 text, the header first unless left out, each ended by CRLF. */
function* csvRecords(table: CsvTable, options: CsvOptions): Generator<string> {
  const width = table.columns.length;
  if (options.header) yield `${table.columns.map(field).join(',')}\r\n`;
  for (const row of table.rows) {
    if (row.length !== width) throw new Error(`a CSV row of ${row.length} fields under a header of ${width}`);
    yield `${row.map(field).join(',')}\r\n`;
  }
}

/** The table as RFC 4180 text: header (unless left out) and every row, each record ended by CRLF. */
export function csvText(table: CsvTable, options: CsvOptions = WITH_HEADER): string {
  let out = '';
  for (const record of csvRecords(table, options)) out += record;
  return out;
}

/** About how much text is written between turns of the event loop. */
const CSV_CHUNK_CHARS = 1 << 16;

/**
 * Waits until the response can take more, or the client is gone. The listener of the event that
 * did not come is removed: a large table waits thousands of times, and left behind they piled up
 * on the response (Node warns past ten).
 */
async function drainedOrClosed(res: Response): Promise<void> {
  const waiting = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: waiting.signal }), once(res, 'close', { signal: waiting.signal })]);
  } finally {
    waiting.abort();
  }
}

/**
 * Writes the table as the answer, a chunk at a time as its rows come: a batch's table runs to
 * millions of rows, and built whole it held the event loop (every other request, /healthz
 * included) for seconds. Between chunks the loop takes its turn, and while the client reads
 * slower than the rows come, writing waits for it; a client gone ends the writing.
 */
export async function sendCsv(
  res: Response,
  status: number,
  table: CsvTable,
  options: CsvOptions & { fileName?: string } = WITH_HEADER,
): Promise<void> {
  // RFC 4180 section 3: the header parameter says whether the first record is the header.
  res.status(status).type(`text/csv; charset=utf-8; header=${options.header ? 'present' : 'absent'}`);
  if (options.fileName !== undefined) res.setHeader('Content-Disposition', `attachment; filename="${options.fileName}"`);
  let chunk = '';
  for (const record of csvRecords(table, options)) {
    chunk += record;
    if (chunk.length < CSV_CHUNK_CHARS) continue;
    const flowing = res.write(chunk);
    chunk = '';
    if (flowing) await nextTurn();
    else await drainedOrClosed(res);
    if (res.destroyed) return;
  }
  res.end(chunk);
}

/**
 * The CSV the request's Accept asks for, or null where it prefers the JSON this API serves
 * (application/json, or its vendor type of this version) or refuses CSV. CSV is preferred by its
 * quality (RFC 9110 section 12.5.1, the most specific range naming it deciding: `text/*,
 * text/csv;q=0` refuses it), then at one quality by the more specific range (`* / *, text/csv` is
 * CSV, `text/*, application/json` JSON), then by the one named first
 * (docs/decisions/0445-csv-preferred-by-the-more-specific-range.md). No Accept, and * / *, are
 * JSON, the default; another vendor's type, or another version of this one, is no JSON it serves
 * (negotiate.ts), so it does not outweigh CSV. The header row is left out where the range that
 * gave CSV its quality says `header=absent` (RFC 4180 section 3).
 */
export function csvAsked(req: Request, vendor: string): CsvOptions | null {
  const header = req.headers.accept;
  if (!header) return null;
  const ranges = parseAccept(header);
  const csv = quality(ranges, CSV_MEDIA_TYPE);
  if (csv.q <= 0 || !outranks(csv, jsonQuality(ranges, vendor))) return null;
  return { header: csv.specificity !== 2 || csv.params.header?.toLowerCase() !== 'absent' };
}

/**
 * The name a CSV answer is saved under (RFC 6266 filename): its path's segments, decoded, joined
 * by `_`, every run of characters other than ASCII letters, digits, `.` and `-` made one `-`, so
 * the name needs no escaping in the header and no file system refuses it.
 */
export function csvFileName(path: string): string {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // a malformed escape stays as sent, and its `%` becomes a `-`
      }
      return decoded.replace(/[^A-Za-z0-9.-]+/g, '-');
    });
  return `${segments.join('_') || 'answer'}.csv`;
}
