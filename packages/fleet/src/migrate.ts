import { FleetEnv, migrateIdentity, migrateService } from '@fieldcast/runtime';
import { writeClimateLatticeFile } from '@fieldcast/weather';
import { openCliDatabase } from './data-dir.js';
import { SERVICES, serviceNamed } from './services.js';

/** `fieldcast migrate [area...]`: identity plus each named (default: every) service schema. */
export async function migrateCommand(areas: string[], env: FleetEnv, print: (line: string) => void): Promise<void> {
  const definitions = areas.length > 0 ? areas.map(serviceNamed) : SERVICES;
  const { db, done } = await openCliDatabase(env);
  try {
    await migrateIdentity(db);
    print('identity: up to date');
    for (const d of definitions) {
      await migrateService(db, d);
      print(`${d.area}: up to date`);
    }
  } finally {
    await done();
  }
}

/** `fieldcast climate-lattice`: the synthetic climate's static table, written once to the cache folder. */
export function climateLatticeCommand(print: (line: string) => void): void {
  print(writeClimateLatticeFile());
}
