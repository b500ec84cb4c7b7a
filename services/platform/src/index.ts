export { platformService } from './definition.js';
