export { tilesService } from './definition.js';
