export { modelService, SYNCED_REGISTRY_TASK } from './definition.js';
