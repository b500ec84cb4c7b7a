/** A file that is not GRIB2, or a message this decoder does not read; the message says which. */
export class GribError extends Error {
  override name = 'GribError';
}
