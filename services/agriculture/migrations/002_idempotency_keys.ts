import { idempotencyKeysMigration as keptAnswers } from '@fieldcast/db';

/**
 * The answers of the area's creates (fields) kept for their Idempotency-Keys, each written in
 * its create's transaction (docs/interface.md §1; docs/decisions/0434-creates-answered-again-under-an-idempotency-key.md).
 */
export const idempotencyKeysMigration = keptAnswers('002_idempotency_keys');
