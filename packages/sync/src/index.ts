// @fieldcast/sync: GRIB2 model runs fetched from their upstream archives and turned into
// Fieldcast's variables (docs/decisions/0230-sync-sources-and-variables.md). `fieldcast sync` drives it.
export { SyncError, SyncConfigError, UpstreamError, MessageRangeError, FileShortError, StepDataError, StepMissingError } from './errors.js';
export { type SourceName, type SourceFacts, SOURCES, isSourceName, sourceUrlVariable, sourceBaseUrl, stepUrls } from './sources.js';
export { type HttpOptions, type HttpStats, SourceHttp } from './http.js';
export { type Quantity, type Parameter, PARAMETERS } from './parameters.js';
export { type ConvertedField, type DecodedStep, RunConverter, readStep } from './step.js';
export { ECMWF_PTYPE, GFS_CATEGORIES, fromEcmwfPtype, fromGfsCategories } from './precipitation-type.js';
export { type ConvertedStep, parseRun, parseStepRange, readRun, runSteps, runsBefore } from './run.js';
export { type SyncOptions, type SyncResult, runName, syncRun } from './sync.js';
export {
  type SyncedModel,
  type SyncedRun,
  readSyncedModels,
  type SyncedStepFrame,
  syncedModelDef,
  syncedStepFrames,
  syncedValidTimes,
} from './synced-models.js';
