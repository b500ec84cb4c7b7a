import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** One file the console serves: its bytes and media type. */
export interface Asset {
  body: Buffer;
  type: string;
}

/**
 * The page's files, built from the TypeScript sources in ./browser and the npm packages the
 * lockfile installed: no CDN, nothing fetched from the internet (decision 0190). Run at start
 * from the sources, and by `pnpm build` for the bundle (decision 0194).
 */
export async function buildAssets(): Promise<Map<string, Asset>> {
  // Loaded only here: the bundle serves the page prebuilt and carries no esbuild (scripts/build.ts).
  const { build } = await import('esbuild');
  const out = mkdtempSync(join(tmpdir(), 'fieldcast-console-'));
  try {
    await build({
      entryPoints: [join(here, 'browser', 'main.ts')],
      bundle: true,
      format: 'iife',
      target: 'es2020',
      minify: true,
      sourcemap: false,
      outfile: join(out, 'console.js'),
      logLevel: 'silent',
    });
    const assets = new Map<string, Asset>();
    const add = (path: string, file: string, type: string) => assets.set(path, { body: readFileSync(file), type });
    add('/console.js', join(out, 'console.js'), 'text/javascript; charset=utf-8');
    add('/', join(here, 'browser', 'index.html'), 'text/html; charset=utf-8');
    add('/console.css', join(here, 'browser', 'console.css'), 'text/css; charset=utf-8');
    add('/vendor/leaflet.css', require.resolve('leaflet/dist/leaflet.css'), 'text/css; charset=utf-8');
    // Leaflet's stylesheet names its control images relative to itself (images/layers.png ...).
    const leafletImages = join(dirname(require.resolve('leaflet/dist/leaflet.css')), 'images');
    for (const image of readdirSync(leafletImages)) add(`/vendor/images/${image}`, join(leafletImages, image), 'image/png');
    add('/vendor/uplot.css', require.resolve('uplot/dist/uPlot.min.css'), 'text/css; charset=utf-8');
    // Natural Earth at 1:50m: land for the base map, countries for their borders.
    add('/atlas/land.json', require.resolve('world-atlas/land-50m.json'), 'application/json');
    add('/atlas/countries.json', require.resolve('world-atlas/countries-50m.json'), 'application/json');
    return assets;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
