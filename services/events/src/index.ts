export { eventsService } from './definition.js';
