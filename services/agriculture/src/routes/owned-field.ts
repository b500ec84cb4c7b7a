import { NotFoundError } from '@fieldcast/kit';
import type { FieldRecord } from '../domain/fields.js';
import type { FieldStore } from '../store.js';

/** The caller's field; another account's field is "does not exist" (ownership as for fields, spec 4.2). */
export async function ownedField(fields: FieldStore, accountId: string, id: string): Promise<FieldRecord> {
  const field = await fields.get(accountId, id);
  if (!field) throw new NotFoundError('field', id);
  return field;
}
