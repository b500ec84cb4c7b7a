/**
 * The latest of a series of requests for the same thing on the page (the point clicked, a
 * panel's settings). Answers arrive in any order: one to an earlier request would overwrite the
 * later one's, so starting a request aborts the one before, and its answers, should they arrive
 * anyway, are dropped by whoever checks the signal. No DOM here, so it is tested in Node.
 */
export class LatestRequest {
  private controller: AbortController | null = null;

  /** A new request's signal; the request before it is aborted. */
  start(): AbortSignal {
    this.controller?.abort();
    this.controller = new AbortController();
    return this.controller.signal;
  }
}
