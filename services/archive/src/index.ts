export { archiveService } from './definition.js';
