export { SyntheticSource, SYNTHETIC_GRID, SYNTHETIC_START_MS } from './synthetic-source.js';
export {
  DAMAGING_GUST_MS,
  severeEvents,
  SEVERE_KINDS,
  TORNADO_REACH_KM,
  type SevereKind,
  type AnySevereEvent,
  type StormReportEvent,
} from './severe.js';
export { PRECIPITATION_TYPE } from './precipitation.js';
export { LAPSE_RATE_K_PER_M } from './climate.js';
export {
  climateLatticeFile,
  climateLatticeRowsWhole,
  prepareSyntheticClimate,
  readClimateLattice,
  writeClimateLatticeFile,
} from './geoclimate.js';
export { warmSyntheticWorld } from './warm-up.js';
export { syntheticWorldForThreads } from './shared-with-threads.js';
