export { transferService } from './definition.js';
