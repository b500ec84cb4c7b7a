export { agricultureService } from './definition.js';
export { createApp } from './app.js';
