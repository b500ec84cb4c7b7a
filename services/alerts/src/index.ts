export { alertsService } from './definition.js';
