import { type Field, type FieldBody, FieldRecords } from '../src/browser/field-records.js';

/*
 * PUT replaces the whole field (docs/interface.md §2): every save must send the field as the
 * console knows it now, the user's other edits included, or it puts back what they changed.
 */
const SQUARE = [
  [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 0],
  ],
];
const MOVED = [
  [
    [0, 0],
    [2, 0],
    [2, 2],
    [0, 0],
  ],
];

function field(description: string, polygon = SQUARE): Field {
  return {
    id: 'f1',
    description,
    type: 'GeometryCollection',
    geometries: [{ type: 'MultiPolygon', coordinates: [polygon] }],
    centroid: { latitude: 0.5, longitude: 0.5 },
  };
}

/** A promise resolved from outside, so a test decides when the area answers. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The agriculture area's PUT: stores the body as sent, after `answer` if given. */
function fakeArea() {
  const sent: FieldBody[] = [];
  let answer: Promise<void> = Promise.resolve();
  const send = async (id: string, body: FieldBody): Promise<Field> => {
    sent.push(body);
    await answer;
    return {
      ...field(body.description),
      id,
      geometries: body.geometries.map((g) => ({ type: 'MultiPolygon', coordinates: [g.coordinates] })),
    };
  };
  return { sent, send, hold: (until: Promise<void>) => (answer = until) };
}

describe('saving a field', () => {
  it('sends the description renamed since the shape editor opened with the new shape', async () => {
    const area = fakeArea();
    const records = new FieldRecords(area.send);
    records.reset([field('North 40')]);
    // the shape editor opens on the field, then the user renames it, then saves the shape
    await records.save('f1', { description: 'North 41' });
    const saved = await records.save('f1', { polygons: [MOVED as [number, number][][]] });
    expect(area.sent[1]).toEqual({
      description: 'North 41',
      type: 'GeometryCollection',
      geometries: [{ type: 'Polygon', coordinates: MOVED }],
    });
    expect(saved.description).toBe('North 41');
    expect(records.get('f1')?.description).toBe('North 41');
  });

  it('sends a rename made while the shape is being saved after that save, with the new shape', async () => {
    const area = fakeArea();
    const records = new FieldRecords(area.send);
    records.reset([field('North 40')]);
    const slow = deferred();
    area.hold(slow.promise);
    const shape = records.save('f1', { polygons: [MOVED as [number, number][][]] });
    const rename = records.save('f1', { description: 'North 41' });
    slow.resolve();
    await Promise.all([shape, rename]);
    expect(area.sent.map((b) => [b.description, b.geometries[0]!.coordinates])).toEqual([
      ['North 40', MOVED],
      ['North 41', MOVED],
    ]);
    expect(records.get('f1')?.description).toBe('North 41');
  });

  it('keeps the record as it was when a save fails, and saves the next on it', async () => {
    const area = fakeArea();
    let refuse = true;
    const records = new FieldRecords(async (id, body) => {
      if (refuse) throw new Error('agriculture: the ring crosses itself');
      return area.send(id, body);
    });
    records.reset([field('North 40')]);
    await expect(records.save('f1', { polygons: [MOVED as [number, number][][]] })).rejects.toThrow('crosses itself');
    refuse = false;
    await records.save('f1', { description: 'North 41' });
    expect(area.sent).toEqual([
      { description: 'North 41', type: 'GeometryCollection', geometries: [{ type: 'Polygon', coordinates: SQUARE }] },
    ]);
  });
});
