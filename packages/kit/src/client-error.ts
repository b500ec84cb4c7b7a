import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemOf } from './error-table.js';
import { ClientStatusError } from './errors.js';
import { PROBLEM_MEDIA_TYPE, problemJson } from './problem-handler.js';

/** Node's HTTP parser failures that are the client's, and the status each is answered with. */
const PARSER_FAILURES: Record<string, { status: number; code: string; message: string }> = {
  // RFC 6585 section 5: header fields over the server's limit (Node's maxHeaderSize, 16 KB).
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'request_header_fields_too_large',
    message: 'The request header fields are larger than the limit of 16 KB',
  },
  // RFC 9110 section 15.5.9: the client did not send a whole request in the server's time.
  HPE_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request was not received in time' },
};

/**
 * A listener for an HTTP server's 'clientError' event: a request Node's parser refused before any
 * route saw it is answered with problem+json too (RFC 9457), written to the socket because no
 * response object exists; a connection already gone is only closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const known = PARSER_FAILURES[err.code ?? ''];
  const problem = problemOf(
    new ClientStatusError(known?.status ?? 400, known?.code ?? 'bad_request', known?.message ?? 'The request is not valid HTTP/1.1'),
  );
  const body = problemJson(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Bad Request'}\r\n` +
      `Content-Type: ${PROBLEM_MEDIA_TYPE}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
