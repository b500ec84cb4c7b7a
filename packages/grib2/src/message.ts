/**
 * GRIB edition 2 messages (WMO FM 92 GRIB2): section 0 "GRIB" with the discipline, edition 2 and
 * the message's length; section 1 identification; then sections 2-7 of which 2 (local use), 3-7
 * or 4-7 may repeat to give several fields in one message, each field ending with its section 7;
 * section 8 "7777" closes the message (regulation 92.1.3).
 */
import { uint16, uint32, uint64 } from './bits.js';
import { GribError } from './errors.js';
import { type LatLonGrid, readGrid } from './grid.js';
import { type Product, readProduct } from './product.js';
import { type Representation, readRepresentation } from './representation.js';
import { readTime } from './time.js';

/** One field of a message: what it is and where its packed values lie; `decodeField` unpacks them. */
export interface GribField {
  /** Byte offset of its message in the buffer given to `readFields`, the message's length, and the field's index within it. */
  messageOffset: number;
  messageLength: number;
  fieldIndex: number;
  /** Code table 0.0. */
  discipline: number;
  centre: number;
  subCentre: number;
  /** Section 1: the reference time (UTC ms) and its significance (code table 1.2). */
  referenceTimeMs: number;
  referenceTimeSignificance: number;
  grid: LatLonGrid;
  /** Grid points in section 3 (the bitmap has one bit per point). */
  gridPoints: number;
  product: Product;
  representation: Representation;
  /** Section 6's bitmap (one bit per grid point, 1 where a value is packed), or null when there is none (indicator 255). */
  bitmap: Uint8Array | null;
  /** Section 7's packed data, from its sixth octet. */
  data: Uint8Array;
}

interface Section {
  number: number;
  bytes: Uint8Array;
}

/** Every field of every GRIB2 message in `bytes`, in order; anything between messages is skipped. */
export function readFields(input: Uint8Array): GribField[] {
  // A plain view (not a node Buffer) keeps every reader's byte access of one kind.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const fields: GribField[] = [];
  let p = 0;
  for (;;) {
    const start = findGrib(bytes, p);
    if (start < 0) break;
    if (start + 16 > bytes.length) throw new GribError(`message at byte ${start} is truncated`);
    const edition = bytes[start + 7];
    if (edition !== 2) throw new GribError(`message at byte ${start} is GRIB edition ${edition}, not 2`);
    const length = uint64(bytes, start + 8);
    if (start + length > bytes.length)
      throw new GribError(`message at byte ${start} is truncated: ${length} bytes announced, ${bytes.length - start} present`);
    fields.push(...readMessage(bytes.subarray(start, start + length), start));
    p = start + length;
  }
  return fields;
}

function findGrib(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 4 <= bytes.length; i++) {
    if (bytes[i] === 0x47 && bytes[i + 1] === 0x52 && bytes[i + 2] === 0x49 && bytes[i + 3] === 0x42) return i;
  }
  return -1;
}

const SECTION_NAMES = [
  'indicator',
  'identification',
  'local use',
  'grid definition',
  'product definition',
  'data representation',
  'bitmap',
  'data',
  'end',
];

/** The sections regulation 92.1.3 lets follow section `previous` (0 to 7), and how to say so. */
function nextSections(previous: number): { numbers: number[]; words: string } {
  if (previous === 1) return { numbers: [2, 3], words: 'section 2 (local use) or 3 (grid definition)' };
  if (previous === 7) return { numbers: [2, 3, 4], words: `section 8 ("7777") or the next field's section 2, 3 or 4` };
  return { numbers: [previous + 1], words: `section ${previous + 1} (${SECTION_NAMES[previous + 1]})` };
}

function readMessage(m: Uint8Array, offset: number): GribField[] {
  const discipline = m[6]!;
  const sections: Section[] = [];
  const fault = (detail: string) => new GribError(`message at byte ${offset}: ${detail}`);
  let p = 16;
  let previous = 0;
  while (p < m.length) {
    if (m[p] === 0x37 && m[p + 1] === 0x37 && m[p + 2] === 0x37 && m[p + 3] === 0x37) {
      if (p + 4 !== m.length) throw fault(`section 8 at ${p} before its announced end`);
      return fieldsOf(m, offset, discipline, sections);
    }
    if (p + 5 > m.length) break;
    const length = uint32(m, p);
    const number = m[p + 4]!;
    // Octets are counted from 1 in the message, as WMO counts them, so that a person can find them in a dump.
    const expected = nextSections(previous);
    if (!expected.numbers.includes(number)) {
      const found =
        number >= 1 && number <= 7
          ? `section ${number} (${SECTION_NAMES[number]})`
          : `no section there (its number, octet 5, reads ${number})`;
      const cause =
        previous === 0 ? 'the message is damaged' : `section ${previous}'s length (its octets 1-4) is wrong, or the message is damaged`;
      throw fault(
        `${expected.words} should follow section ${previous} (${SECTION_NAMES[previous]}) at octet ${p + 1}, found ${found}: ${cause}`,
      );
    }
    if (length < 5 || p + length > m.length) {
      const size = length < 5 ? "fewer than a section's 5" : `more than the ${m.length - p} left in the message`;
      throw fault(
        `section ${number} (${SECTION_NAMES[number]}) at octet ${p + 1} declares ${length} octets, ${size}: its length (octets 1-4) is wrong, or the message is cut short`,
      );
    }
    sections.push({ number, bytes: m.subarray(p, p + length) });
    previous = number;
    p += length;
  }
  throw new GribError(`message at byte ${offset} has no section 8 ("7777")`);
}

function fieldsOf(m: Uint8Array, offset: number, discipline: number, sections: Section[]): GribField[] {
  const fields: GribField[] = [];
  let identification: Uint8Array | undefined;
  let grid: Uint8Array | undefined;
  let product: Uint8Array | undefined;
  let representation: Uint8Array | undefined;
  let bitmapSection: Uint8Array | undefined;
  let lastBitmap: Uint8Array | null = null;
  for (const { number, bytes } of sections) {
    if (number === 1) identification = bytes;
    else if (number === 3) grid = bytes;
    else if (number === 4) product = bytes;
    else if (number === 5) representation = bytes;
    else if (number === 6) bitmapSection = bytes;
    else if (number === 7) {
      if (!identification || !grid || !product || !representation || !bitmapSection) {
        throw new GribError(`message at byte ${offset}: section 7 before sections 1, 3, 4, 5 and 6`);
      }
      // Section 1 has 21 octets; section 6 at least its indicator, octet 6.
      if (identification.length < 21)
        throw new GribError(`message at byte ${offset}: section 1 of ${identification.length} octets, shorter than 21`);
      if (bitmapSection.length < 6)
        throw new GribError(`message at byte ${offset}: section 6 of ${bitmapSection.length} octets, shorter than 6`);
      const gridPoints = uint32(grid, 6);
      const indicator = bitmapSection[5]!;
      let bitmap: Uint8Array | null;
      if (indicator === 0) bitmap = bitmapSection.subarray(6);
      else if (indicator === 254) {
        if (!lastBitmap) throw new GribError(`message at byte ${offset}: bitmap indicator 254 with no earlier bitmap`);
        bitmap = lastBitmap;
      } else if (indicator === 255) bitmap = null;
      else throw new GribError(`predefined bitmap ${indicator} (code table 6.0) is not supported`);
      if (bitmap && bitmap.length * 8 < gridPoints) throw new GribError(`bitmap of ${bitmap.length * 8} bits for ${gridPoints} points`);
      if (indicator === 0) lastBitmap = bitmap;
      const id = identification;
      fields.push({
        messageOffset: offset,
        messageLength: m.length,
        fieldIndex: fields.length,
        discipline,
        centre: uint16(id, 5),
        subCentre: uint16(id, 7),
        referenceTimeSignificance: id[11]!,
        referenceTimeMs: readTime(id, 12, `message at byte ${offset}: section 1 octets 13-19 (reference time)`),
        grid: readGrid(grid),
        gridPoints,
        product: readProduct(product),
        representation: readRepresentation(representation),
        bitmap,
        data: bytes.subarray(5),
      });
    }
  }
  // Regulation 92.1.3: every field ends with its section 7, and section 8 follows the last.
  const last = sections[sections.length - 1]?.number;
  if (last !== 7)
    throw new GribError(`message at byte ${offset}: section ${last ?? 0} before section 8, where a section 7 must end the last field`);
  return fields;
}
