export { observationsService } from './definition.js';
