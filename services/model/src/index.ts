export { modelService } from './definition.js';
