import type { FrameRecord } from '@fieldcast/weather';

/**
 * A list of frame records as JSON text, exactly what JSON.stringify gives, written field by field:
 * a page is up to a thousand records, and building them as text halves the work of a list
 * (bench/README.md). Every string here is a UUID, an ISO 8601 timestamp, a link built of those or
 * a media type, none of which holds a character JSON escapes.
 */
export function framesJson(frames: readonly FrameRecord[]): string {
  let out = '[';
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    const z = f.zoomLevels;
    out +=
      `${i ? ',' : ''}{"id":"${f.id}","validTime":"${f.validTime}","runTime":"${f.runTime}","creationTime":"${f.creationTime}",` +
      `"expirationTime":${f.expirationTime === null ? 'null' : `"${f.expirationTime}"`},` +
      `"zoomLevels":{"minimum":${z.minimum},"native":${z.native},"maximum":${z.maximum}},"mediaTypes":${JSON.stringify(f.mediaTypes)},` +
      `"tileSize":${f.tileSize},"forecast":${f.forecast === null ? 'null' : `"${f.forecast}"`},"product":"${f.product}"}`;
  }
  return `${out}]`;
}
