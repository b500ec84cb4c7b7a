/** An object, with the names its members had so far and the one being read; or an array, with the index of the element being read. */
interface Frame {
  names: Set<string> | null;
  key: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Where the string value opened at `open` ends: its first quote not escaped by a backslash. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/**
 * The paths, dotted as the kit's other body errors (formatIssues: `geometry.coordinates`,
 * `points.3.name`), of the members of `text` whose name an earlier member of the same object
 * already had, each path once. Names are compared as the strings they denote, so `"a"` and
 * `"\u0061"` are the same name (RFC 8259 section 7). `text` is JSON that already parsed: one pass
 * over it, allocating per object and per name, never per character.
 */
export function duplicateNames(text: string): string[] {
  const found = new Set<string>();
  const stack: Frame[] = [];
  // A string is a member's name where it opens an object's member: after `{` or an object's `,`.
  let nameNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const frame = stack[stack.length - 1];
      if (nameNext && frame?.names) {
        let escaped = false;
        let end = i + 1;
        for (; text.charCodeAt(end) !== QUOTE; end++) {
          if (text.charCodeAt(end) === BACKSLASH) {
            escaped = true;
            end++;
          }
        }
        const name = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        frame.key = name;
        if (frame.names.has(name)) found.add(stack.map((f) => String(f.key)).join('.'));
        else frame.names.add(name);
        nameNext = false;
        i = end;
      } else i = closingQuote(text, i);
    } else if (c === OPEN_OBJECT) {
      stack.push({ names: new Set(), key: '' });
      nameNext = true;
    } else if (c === OPEN_ARRAY) {
      stack.push({ names: null, key: 0 });
      nameNext = false;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
    } else if (c === COMMA) {
      const frame = stack[stack.length - 1]!;
      if (frame.names) nameNext = true;
      else frame.key = (frame.key as number) + 1;
    }
  }
  return [...found];
}
