export { eventsService } from './definition.js';
export { createApp } from './app.js';
