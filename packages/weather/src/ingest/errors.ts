/** Why a file could not be ingested, in words a user of `fieldcast ingest` can act on. */
export class IngestError extends Error {
  override name = 'IngestError';
}
