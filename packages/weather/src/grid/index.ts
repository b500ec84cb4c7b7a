// The grid contract (docs/architecture.md §6): what a source of gridded weather answers
// (GridSource, its windows, series and errors), reads batched from single reads, and the
// windows an area reads around a place.
export * from './grid-source.js';
export { PHYSICAL_BOUNDS } from './physical-bounds.js';
export * from './batched-reads.js';
export { centresWithin, windowParts } from './grid-windows.js';
export {
  hourMeans,
  isTimeStatistic,
  type MeanWeights,
  meanOver,
  meanWeights,
  stampIndex,
  timeCellOf,
  weightedValue,
} from './time-cells.js';
