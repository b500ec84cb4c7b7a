/**
 * Archive users for the `fieldcast archive` commands and the embedded fleet's demo user
 * (docs/decisions/0172-archive-access.md): the store of the archive's schema, used by the CLI
 * after it has migrated that schema.
 */
export { ArchiveUserStore, ArchiveRegistrationError } from './store.js';
