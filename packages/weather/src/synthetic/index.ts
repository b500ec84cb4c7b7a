export {
  SyntheticSource,
  SYNTHETIC_GRID,
  SYNTHETIC_HORIZON_DAYS,
  SYNTHETIC_START_MS,
  type SyntheticSourceOptions,
} from './synthetic-source.js';
export { SYNTHETIC_VARIABLES, syntheticVariable, isVariableId } from './variables.js';
export {
  severeEvents,
  SEVERE_HAIL_MM,
  SEVERE_GUST_MS,
  type SevereKind,
  type SevereEvent,
  type AnySevereEvent,
  type HailEvent,
  type TornadoEvent,
  type GustEvent,
  type LightningEvent,
  type StormReportEvent,
} from './severe.js';
export { PRECIPITATION_TYPE } from './precipitation.js';
export { LAPSE_RATE_K_PER_M } from './climate.js';
export { climateLatticeFile, writeClimateLatticeFile } from './geoclimate.js';
export { climateCacheDir } from './climate-lattice.js';
