// Writes docker-compose.yml, k8s/base, scripts/kafka/topics.txt and packages/ids/src/areas.ts
// from the registry of areas (packages/fleet/src/services.ts). `pnpm generate` writes them; `pnpm generate --check` only
// lists the files that differ and exits 1 if any do.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEPLOYED_AREAS, portOf } from './deploy/areas.js';
import { HAND_WRITTEN_BASE, renderDeployFiles } from './deploy/render.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const files = renderDeployFiles(DEPLOYED_AREAS, portOf);
// An area removed from the registry leaves its base file behind; it goes too.
const stale = readdirSync(join(root, 'k8s/base'))
  .map((name) => `k8s/base/${name}`)
  .filter((path) => path.endsWith('.yaml') && !files.has(path) && !HAND_WRITTEN_BASE.includes(path));

const changed = [...files]
  .filter(([path, text]) => !existsSync(join(root, path)) || readFileSync(join(root, path), 'utf8') !== text)
  .map(([path]) => path);
for (const path of [...changed, ...stale])
  process.stdout.write(`${check ? 'differs' : stale.includes(path) ? 'removes' : 'writes'}: ${path}\n`);
if (check && changed.length + stale.length > 0) {
  process.stderr.write('generated files differ from the registry of areas: run `pnpm generate`\n');
  process.exit(1);
}
for (const path of check ? [] : changed) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), files.get(path)!);
}
if (!check) for (const path of stale) rmSync(join(root, path));
process.stdout.write(`generated files match the ${DEPLOYED_AREAS.length} areas: ${DEPLOYED_AREAS.map((a) => a.area).join(', ')}\n`);
