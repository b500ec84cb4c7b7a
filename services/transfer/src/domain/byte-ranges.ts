/**
 * The Range header of a GET (RFC 9110 section 14): one byte range is served as 206; a header that
 * is not a byte range, or asks for several, is answered with the whole file, as a server may
 * (section 14.2); a range starting past the end is 416.
 */
export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

export function byteRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return { kind: 'whole' };
  const specs = m[1]!.split(',').map((s) => s.trim());
  const parsed: { start: number; end: number }[] = [];
  for (const spec of specs) {
    const r = /^(\d*)-(\d*)$/.exec(spec);
    if (!r || (r[1] === '' && r[2] === '')) return { kind: 'whole' }; // not a valid range set: ignored (section 14.2)
    if (r[1] === '') {
      const suffix = Number(r[2]);
      if (suffix > 0 && size > 0) parsed.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    const end = r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1);
    if (r[2] !== '' && Number(r[2]) < start) return { kind: 'whole' };
    if (start < size) parsed.push({ start, end });
  }
  if (parsed.length === 0) return { kind: 'unsatisfiable' };
  if (parsed.length > 1) return { kind: 'whole' };
  return { kind: 'part', ...parsed[0]! };
}
