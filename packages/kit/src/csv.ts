import type { Request, Response } from 'express';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { jsonQuality, parseAccept, quality } from './negotiate.js';

/**
 * CSV answers (RFC 4180; docs/decisions/0243-csv-answers.md): a header row, then one record per
 * row, fields separated by commas and records by CRLF; a field holding a comma, a double quote,
 * CR or LF is enclosed in double quotes, its quotes doubled. No metadata above the header.
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

const NEEDS_QUOTES = /[",\r\n]/;

function field(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  const text = typeof cell === 'number' ? JSON.stringify(cell) : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The table's records as RFC 4180 text, the header first, each ended by CRLF. */
function* csvRecords(table: CsvTable): Generator<string> {
  const width = table.columns.length;
  yield `${table.columns.map(field).join(',')}\r\n`;
  for (const row of table.rows) {
    if (row.length !== width) throw new Error(`a CSV row of ${row.length} fields under a header of ${width}`);
    yield `${row.map(field).join(',')}\r\n`;
  }
}

/** The table as RFC 4180 text: header and every row, each record ended by CRLF. */
export function csvText(table: CsvTable): string {
  let out = '';
  for (const record of csvRecords(table)) out += record;
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
export async function sendCsv(res: Response, status: number, table: CsvTable): Promise<void> {
  res.status(status).type('text/csv; charset=utf-8; header=present');
  let chunk = '';
  for (const record of csvRecords(table)) {
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
 * Whether the request's Accept prefers CSV to JSON: CSV's quality (RFC 9110 section 12.5.1, the
 * most specific range naming it deciding: `text/*, text/csv;q=0` refuses it) above that of the
 * JSON this API serves (application/json, or its vendor type of this version), or the same and
 * named first. No Accept, and * / *, are JSON, the default; another vendor's type, or another
 * version of this one, is no JSON it serves (negotiate.ts), so it does not outweigh CSV.
 */
export function prefersCsv(req: Request, vendor: string): boolean {
  const header = req.headers.accept;
  if (!header) return false;
  const ranges = parseAccept(header);
  const csv = quality(ranges, CSV_MEDIA_TYPE);
  const json = jsonQuality(ranges, vendor);
  return csv.q > 0 && (csv.q > json.q || (csv.q === json.q && csv.at < json.at));
}
