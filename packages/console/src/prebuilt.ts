import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Asset } from './bundle.js';

/** The directory beside cli.js that `pnpm build` writes the page into (scripts/build.ts). */
export const PREBUILT_DIR = 'console-page';

/** Lists each served path with its file in the directory and its media type. */
const MANIFEST = 'manifest.json';

type Manifest = Record<string, { file: string; type: string }>;

/** The file a served path is kept in: the page itself as index.html, the others by their path. */
const fileOf = (path: string) => (path === '/' ? 'index.html' : path.slice(1));

/**
 * Writes the page's files into `dir`, as `pnpm build` does beside cli.js, so the deployed console
 * serves them as built and needs no bundler at run time (decision 0194).
 */
export function writePrebuilt(assets: ReadonlyMap<string, Asset>, dir: string): void {
  const manifest: Manifest = {};
  for (const [path, asset] of assets) {
    const file = fileOf(path);
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), asset.body);
    manifest[path] = { file, type: asset.type };
  }
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Reads the files writePrebuilt wrote; a directory without its manifest is a broken build. */
export function readPrebuilt(dir: string): Map<string, Asset> {
  if (!existsSync(join(dir, MANIFEST))) {
    throw new Error(`the console's page is not built: ${join(dir, MANIFEST)} is missing (\`pnpm build\` writes it beside cli.js)`);
  }
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest;
  return new Map(Object.entries(manifest).map(([path, { file, type }]) => [path, { body: readFileSync(join(dir, file)), type }]));
}
