export { insightService } from './definition.js';
