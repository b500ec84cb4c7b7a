/** The caller of an operation, as HTTP Basic established it (docs/architecture.md §3). */
export interface Account {
  id: string;
  name: string;
  handle: string;
}

/**
 * The accounts as the HTTP layer reads them: checking an application id and key, and finding an
 * account by id or handle. Accounts and keys live in schema `identity` (docs/architecture.md §4);
 * the runtime's IdentityStore implements this over the database, so the kit needs none.
 */
export interface Identity {
  /** the account of credentials checked a moment ago, without waiting, or undefined */
  cachedAccount(applicationId: string, applicationKey: string): Account | undefined;
  /** the account whose live key this is, or null */
  authenticate(applicationId: string, applicationKey: string): Promise<Account | null>;
  findAccount(idOrHandle: string): Promise<Account | null>;
}
