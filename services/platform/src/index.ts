export { platformService } from './definition.js';
export { GRANT_REPUBLISHING_TASK } from './definition.js';
