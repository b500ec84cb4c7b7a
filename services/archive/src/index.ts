export { archiveService } from './definition.js';
export { ArchiveUserStore, ArchiveRegistrationError } from './store.js';
export { usersMigration } from '../migrations/001_users.js';
