import type { GridSource } from './grid-source.js';

const minutes = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');
const degrees = (x: number) => Number(x.toFixed(6));

/**
 * What a source's grid spans and its hours, in words: the box of its outermost grid points and its
 * coverage (`static` for a source without time), as the start-up banner and refusals name them.
 */
export function gridExtent(source: GridSource): { box: string; time: string } {
  const g = source.grid;
  const c = source.coverage();
  return {
    box: `lat ${degrees(g.lat0)}..${degrees(g.lat0 + (g.nLat - 1) * g.dLat)}, lon ${degrees(g.lon0)}..${degrees(g.lon0 + (g.nLon - 1) * g.dLon)}`,
    time: c.startMs <= -8.64e15 ? 'static' : `${minutes(c.startMs)}..${minutes(c.endMs)}`,
  };
}
