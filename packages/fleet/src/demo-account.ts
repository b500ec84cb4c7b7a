import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IdentityStore } from '@fieldcast/runtime';

export interface Credentials {
  applicationId: string;
  applicationKey: string;
}

/**
 * The first embedded start creates a demo account and writes its credentials; later starts reuse
 * them (docs/architecture.md §2). If the file outlived its database, a new account replaces it.
 */
export async function ensureDemoAccount(identity: IdentityStore, file: string): Promise<{ credentials: Credentials; created: boolean }> {
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Credentials;
    if (await identity.authenticate(saved.applicationId, saved.applicationKey)) return { credentials: saved, created: false };
  }
  const handle = (await identity.findAccount('demo')) ? `demo-${Date.now().toString(36)}` : 'demo';
  const { account, applicationKey } = await identity.createAccount({ name: 'Demo', handle });
  const credentials = { applicationId: account.id, applicationKey };
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { credentials, created: true };
}
