import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StormReportStore } from '@fieldcast/archive/reports';
import { openDatabase, outboxWriter } from '@fieldcast/db';
import { useCliDataDir } from './cli-process.js';

const { dir, fieldcast } = useCliDataDir('fieldcast-archive-cli-');

/** A report file in the SPC's layout, written for the test (no data file is kept in the repository). */
function file(name: string, lines: string[]): string {
  const path = join(dir(), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Reports kept in the data dir, read once the CLI has exited (PGlite is single-process). */
async function kept(type: 'hail' | 'wind', day: string): Promise<number> {
  const db = await openDatabase({ dataDir: join(dir(), 'pglite') });
  try {
    return await new StormReportStore(db.knex, outboxWriter(db, 'archive')).countDay(type, day);
  } finally {
    await db.close();
  }
}

/**
 * The announcements the CLI left in the archive's outbox, not yet sent: the archive service's relay
 * publishes them at the fleet's next start (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
 */
async function unsentAnnouncements(): Promise<number> {
  const db = await openDatabase({ dataDir: join(dir(), 'pglite') });
  try {
    const [row] = await db.knex.withSchema('archive').table('outbox').whereNull('sent_at').count({ n: '*' });
    return Number(row!.n);
  } finally {
    await db.close();
  }
}

describe('fieldcast archive ingest-reports (embedded data dir, fleet stopped)', () => {
  // Each call is a real process opening PGlite on disk (a few seconds).
  it('stores a file’s reports once, however often it is ingested; a bad row stores nothing and names its line', async () => {
    const hail = file('250519_rpts_hail.csv', [
      'Time,Size,Location,County,State,Lat,Lon,Comments',
      '1830,175,3 NW Norman,Cleveland,OK,35.25,-97.48,Golf ball hail. (OUN)',
      '0115,100,Enid,Garfield,OK,36.40,-97.88,Quarter hail. (OUN)',
    ]);
    const first = await fieldcast('archive', 'ingest-reports', '--type', 'hail', '--date', '2025-05-19', '--json', hail);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual({ file: hail, type: 'hail', date: '2025-05-19', stored: 2, replaced: 0 });
    const again = await fieldcast('archive', 'ingest-reports', '--type', 'hail', '--date', '2025-05-19', hail);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('2 hail reports of the convective day 2025-05-19 stored (2 kept before were replaced)');

    const wind = file('250519_rpts_wind.csv', [
      'Time,Speed,Location,County,State,Lat,Lon,Comments',
      '1900,UNK,Moore,Cleveland,OK,35.33,-97.49,Trees down.',
      '1905,65,Moore,Cleveland,OK,135.33,-97.49,Measured gust.',
    ]);
    const bad = await fieldcast('archive', 'ingest-reports', '--type', 'wind', '--date', '2025-05-19', wind);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${wind}: nothing was stored:`);
    expect(bad.stderr).toContain('line 3: Lat "135.33" is not a latitude');

    const wrongType = await fieldcast('archive', 'ingest-reports', '--type', 'tornado', '--date', '2025-05-19', hail);
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toContain('line 1: the header is that of a hail file; --type tornado needs "Time,F_Scale,');

    expect(await kept('hail', '2025-05-19')).toBe(2);
    expect(await kept('wind', '2025-05-19')).toBe(0);
    // one announcement per file stored, none for the refused ones
    expect(await unsentAnnouncements()).toBe(2);
  }, 600_000);

  it('usage faults exit 2 with the command’s form', async () => {
    const noType = await fieldcast('archive', 'ingest-reports', '--date', '2025-05-19', 'x.csv');
    expect(noType.code).toBe(2);
    expect(noType.stderr).toContain('archive ingest-reports needs --type hail|wind|tornado');
    const missing = await fieldcast('archive', 'ingest-reports', '--type', 'hail', '--date', '2025-05-19', join(dir(), 'none.csv'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
  }, 300_000);
});

describe('fieldcast archive register (embedded data dir, fleet stopped)', () => {
  // docs/decisions/0399-forwarded-for-ports-and-address-families.md: a range holds addresses of its own family.
  it('warns on stderr when every range is IPv6, since no IPv4 caller is then admitted; registers all the same', async () => {
    const v6 = await fieldcast('archive', 'register', '--user', 'six', '--cidr', '::/0,2001:db8::/32', '--json');
    expect(v6.code).toBe(0);
    expect(JSON.parse(v6.stdout)).toMatchObject({ name: 'six', ranges: ['::/0', '2001:db8::/32'] });
    expect(v6.stderr).toContain('fieldcast: warning: every range of archive user six is IPv6');
    expect(v6.stderr).toContain('0.0.0.0/0');

    for (const cidr of ['::/0,0.0.0.0/0', '192.0.2.0/24', '::ffff:192.0.2.0/120']) {
      const mixed = await fieldcast('archive', 'register', '--user', 'both', '--cidr', cidr);
      expect([cidr, mixed.code, mixed.stderr]).toEqual([cidr, 0, '']);
    }
  }, 300_000);
});
