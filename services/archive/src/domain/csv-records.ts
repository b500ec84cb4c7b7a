/**
 * The records of CSV text as RFC 4180 section 2 reads them: fields separated by commas, records
 * by line breaks (CRLF, or LF alone as Unix tools write them); a field enclosed in double quotes
 * may hold commas, line breaks (section 2.6) and quotes written twice (section 2.7). A field that
 * does not start with a quote is taken as it stands, quotes and all, as report files with unquoted
 * comments need. A lone CR is text, not a line break.
 */
interface CsvRecord {
  /** the 1-based line of the text the record starts on; a record with a quoted line break spans more */
  line: number;
  /** the record's text, without its line break */
  raw: string;
  /** null when a quoted field is not closed, or text follows its closing quote */
  fields: string[] | null;
}

/** Where the line break at `i` ends, or -1 when there is none. */
function lineBreakEnd(text: string, i: number): number {
  if (text[i] === '\n') return i + 1;
  if (text[i] === '\r' && text[i + 1] === '\n') return i + 2;
  return -1;
}

/** The end of the physical line holding `i`: the index of its line break, or of the text's end. */
function lineEnd(text: string, i: number): number {
  const lf = text.indexOf('\n', i);
  if (lf < 0) return text.length;
  return lf > i && text[lf - 1] === '\r' ? lf - 1 : lf;
}

/** Every record of the text, blank lines included (one empty field each), in order. */
export function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = 0;
  let line = 1;
  while (i < text.length) {
    const start = i;
    const fields: string[] = [];
    let closed = true;
    for (;;) {
      if (text[i] === '"') {
        let value = '';
        i += 1;
        for (;;) {
          const quote = text.indexOf('"', i);
          if (quote < 0) {
            // not closed: the rest of the text is this field's, and the record is refused
            closed = false;
            i = text.length;
            break;
          }
          value += text.slice(i, quote);
          if (text[quote + 1] === '"') {
            value += '"';
            i = quote + 2;
          } else {
            i = quote + 1;
            break;
          }
        }
        if (closed && i < text.length && text[i] !== ',' && lineBreakEnd(text, i) < 0) {
          // text after a closing quote: the record is refused, and the next starts on the next line
          closed = false;
          i = lineEnd(text, i);
        }
        fields.push(value);
      } else {
        const end = Math.min(lineEnd(text, i), text.indexOf(',', i) < 0 ? text.length : text.indexOf(',', i));
        fields.push(text.slice(i, end));
        i = end;
      }
      if (!closed || text[i] !== ',') break;
      i += 1; // the comma
    }
    const raw = text.slice(start, i);
    const next = lineBreakEnd(text, i);
    i = next < 0 ? text.length : next;
    records.push({ line, raw, fields: closed ? fields : null });
    line += raw.split('\n').length - 1 + (next < 0 ? 0 : 1);
  }
  return records;
}
