/**
 * The sync tests' local archive, served for a person to try `fieldcast sync` without the public
 * archive (docs/operations.md "Real data"): the newest GFS run of the clock's last six-hourly cycle, in NOAA's
 * layout with its `.idx` inventories, made of the tests' analytic fields (packages/sync/test/runs.ts)
 * on their small grid near 46 N 10 E. It runs until stopped and leaves nothing behind.
 *
 *   tsx scripts/local-archive.ts [--port 8099] [--steps 0-24]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serveArchive } from '../packages/sync/test/archive-server.js';
import { writeGfsStep } from '../packages/sync/test/runs.js';

const SIX_HOURS = 6 * 3_600_000;
const { values } = parseArgs({ options: { port: { type: 'string', default: '8099' }, steps: { type: 'string', default: '0-24' } } });
const [first, last] = values.steps.split('-').map(Number) as [number, number];
if (!Number.isInteger(first) || !Number.isInteger(last) || first < 0 || last < first) throw new Error(`--steps: A-B, got ${values.steps}`);

const root = mkdtempSync(join(tmpdir(), 'fieldcast-local-archive-'));
const runMs = Math.floor(Date.now() / SIX_HOURS) * SIX_HOURS;
for (let step = first; step <= last; step++) writeGfsStep(root, runMs, step);
const server = await serveArchive(root, Number(values.port));
console.log(`GFS run ${new Date(runMs).toISOString().slice(0, 13)}Z, steps ${first}-${last}, at ${server.baseUrl}`);

const stop = () => void server.close().finally(() => rmSync(root, { recursive: true, force: true }));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
