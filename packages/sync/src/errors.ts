/**
 * What can go wrong between an upstream archive and a decoded field, each naming what it concerns
 * so that `fieldcast sync` can report it and keep the last good run served rather than a
 * half-written one.
 */
export class SyncError extends Error {
  override name = 'SyncError';
}

/** A source, run, step or base URL that does not exist or is not allowed. */
export class SyncConfigError extends SyncError {
  override name = 'SyncConfigError';
}

/** An HTTP request that failed (status, network error or timeout) after its retries. */
export class UpstreamError extends SyncError {
  override name = 'UpstreamError';
  constructor(
    readonly url: string,
    /** The last HTTP status, or null when the last attempt got no response (network error, timeout). */
    readonly status: number | null,
    readonly attempts: number,
    detail: string,
  ) {
    super(`${url}: ${detail} (${attempts} attempt${attempts === 1 ? '' : 's'})`);
  }
}

/**
 * Bytes fetched for a message that are not that message: a truncated file, or an inventory that
 * does not match its file (the range does not start with "GRIB", or section 0 announces another length).
 */
export class MessageRangeError extends SyncError {
  override name = 'MessageRangeError';
  constructor(
    readonly url: string,
    readonly offset: number,
    /** Bytes the inventory gave the message; null for "to the end of the file". */
    readonly length: number | null,
    detail: string,
  ) {
    super(`${url} bytes ${offset}-${length === null ? '' : offset + length - 1}: ${detail}`);
  }
}

/**
 * A file that ends before the bytes its inventory lists (for a last message the inventory gives no
 * end, before the length its section 0 gives). Upstream writes a file in place with its inventory
 * beside it, so this is most often a file still being written: a poll waits for it while its run
 * is recent (docs/decisions/0455-a-file-shorter-than-its-inventory-is-not-yet-published.md).
 */
export class FileShortError extends MessageRangeError {
  override name = 'FileShortError';
}

/** A step whose fields cannot be turned into Fieldcast's variables (missing message, statistics that do not chain, a grid that differs). */
export class StepDataError extends SyncError {
  override name = 'StepDataError';
}

/**
 * A step upstream answers 404 for when the run is too old for that to be "not yet": deleted past
 * the upstream's retention, or never written. A poll reports it rather than wait for it
 * (docs/decisions/0364-a-poll-waits-for-a-step-while-its-run-is-recent.md).
 */
export class StepMissingError extends SyncError {
  override name = 'StepMissingError';
}
