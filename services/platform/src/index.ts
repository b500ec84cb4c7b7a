export { platformService, frameAnnouncerOf } from './definition.js';
export { ProductGrants } from './store.js';
export { GrantCommandError, productGrantsCommand } from './grants.js';
