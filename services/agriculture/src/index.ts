export { agricultureService } from './definition.js';
