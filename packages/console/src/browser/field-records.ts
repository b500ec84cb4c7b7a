/**
 * The account's fields as the console last knew them, and their saves. PUT replaces the whole
 * field (docs/interface.md §2), so a save that sent a copy taken before another edit (the shape
 * editor opened before a rename) would put back what that edit changed. Each save therefore
 * waits for the field's saves before it and sends the latest record with only its own change.
 * No DOM here, so it is tested in Node.
 */

import type { PolygonRings } from './shape-edit.js';

/** A field as the agriculture area returns it (docs/interface.md §2). */
export interface Field {
  id: string;
  description: string;
  type: 'GeometryCollection';
  geometries: { type: 'MultiPolygon'; coordinates: number[][][][] }[];
  centroid: { latitude: number; longitude: number };
}

/** What one save changes: the description, the polygons, or both. */
export interface FieldChange {
  description?: string;
  polygons?: PolygonRings[];
}

/** A field as PUT takes it (docs/interface.md §2). */
export interface FieldBody {
  description: string;
  type: 'GeometryCollection';
  geometries: { type: 'Polygon'; coordinates: PolygonRings }[];
}

/** Sends a field's PUT and answers the field as stored. */
type Send = (id: string, body: FieldBody) => Promise<Field>;

/** A field's polygons as PUT takes them: each MultiPolygon it came back as holds one Polygon. */
export function polygonsOf(field: Field): PolygonRings[] {
  return field.geometries.flatMap((g) => g.coordinates as PolygonRings[]);
}

/** The field's PUT body: the record as it is, with the change made. */
export function replacementOf(field: Field, change: FieldChange): FieldBody {
  const polygons = change.polygons ?? polygonsOf(field);
  return {
    description: change.description ?? field.description,
    type: 'GeometryCollection',
    geometries: polygons.map((coordinates) => ({ type: 'Polygon', coordinates })),
  };
}

export class FieldRecords {
  private records: Field[] = [];
  /** each field's latest save, which the next one waits for */
  private readonly saving = new Map<string, Promise<unknown>>();

  constructor(private readonly send: Send) {}

  get all(): readonly Field[] {
    return this.records;
  }

  get(id: string): Field | undefined {
    return this.records.find((f) => f.id === id);
  }

  reset(fields: Field[]): void {
    this.records = [...fields];
  }

  /** A field as the area answered it (created or saved), in place of what was known of it. */
  put(field: Field): void {
    const at = this.records.findIndex((f) => f.id === field.id);
    if (at < 0) this.records.push(field);
    else this.records[at] = field;
  }

  remove(id: string): void {
    this.records = this.records.filter((f) => f.id !== id);
  }

  /**
   * Saves `change` to field `id` once its earlier saves have ended, on the record as known then;
   * answers the field as stored. A save that fails leaves the record as it was.
   */
  save(id: string, change: FieldChange): Promise<Field> {
    const before = this.saving.get(id) ?? Promise.resolve();
    const saved = before
      .catch(() => undefined)
      .then(async () => {
        const field = this.get(id);
        if (!field) throw new Error(`Field ${id} is no longer in the console`);
        const stored = await this.send(id, replacementOf(field, change));
        // a field deleted meanwhile stays deleted
        this.records = this.records.map((f) => (f.id === id ? stored : f));
        return stored;
      });
    this.saving.set(id, saved);
    void saved
      .catch(() => undefined)
      .then(() => {
        if (this.saving.get(id) === saved) this.saving.delete(id);
      });
    return saved;
  }
}
