import { keptAnswerTagsMigration as keptAnswerTags } from '@fieldcast/db';

/**
 * The ETag of each kept answer, so a create sent again under its Idempotency-Key carries the
 * first answer's tag (docs/decisions/0462-a-replayed-create-carries-its-etag.md). Only added.
 */
export const keptAnswerTagsMigration = keptAnswerTags('003_kept_answer_tags');
