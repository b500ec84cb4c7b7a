import { openDatabase } from '@fieldcast/db';
import { migrateService } from '@fieldcast/runtime';
import { archiveService } from './src/definition.js';
import { ArchiveUserStore } from './src/store.js';
import { answer } from './src/domain/answer.js';
import { SevereEventBlocks } from './src/domain/event-blocks.js';
import { parseArchiveQuery } from './src/domain/query.js';
import { answerJson } from './src/formats/json.js';
const db = await openDatabase({ dataDir: null });
await migrateService(db, archiveService);
const s = new ArchiveUserStore(db.knex);
await s.register({ name: 'bob', ranges: ['127.0.0.1'] });
let t = performance.now();
for (let i = 0; i < 200; i++) await s.find('bob');
console.log('find ms', (performance.now() - t) / 200);
const blocks = new SevereEventBlocks();
const q = parseArchiveQuery({
  type: 'hailsize',
  request: 'summary',
  location: '+35.4676-097.5164',
  query: { radius: '10', end: '2025-08-01T00:00:00Z' },
  now: Date.now(),
});
await answer(q, Date.now(), blocks);
t = performance.now();
for (let i = 0; i < 200; i++) answerJson(await answer(q, Date.now(), blocks));
console.log('answer ms', (performance.now() - t) / 200, blocks.size);
await db.close();
