import { areasFromEnv, startConsole } from '@fieldcast/console';
import { ConfigError, FleetEnv, parseEnv, portOf } from '@fieldcast/runtime';
import { serveConsole } from '../src/console.js';
import { serviceNamed, SERVICES } from '../src/services.js';

describe('the web console server', () => {
  it('serves the page, its bundle, vendor styles, atlas and config; nothing else', async () => {
    const config = { areas: { agriculture: 'http://127.0.0.1:9' }, demo: null, archive: null };
    const running = await startConsole({ port: 0, host: '127.0.0.1', config });
    try {
      const page = await fetch(`${running.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('<script src="/console.js"></script>');
      // No CDN: every script and style the page names is served by the console itself.
      // (The empty data: icon only stops the browser asking for /favicon.ico.)
      for (const [, src] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
        if (src === 'data:,') continue;
        expect(src).toMatch(/^\//);
        expect((await fetch(`${running.url}${src}`)).status).toBe(200);
      }
      const bundle = await (await fetch(`${running.url}/console.js`)).text();
      expect(bundle.length).toBeGreaterThan(50_000); // Leaflet and uPlot are bundled in
      expect(await (await fetch(`${running.url}/config.json`)).json()).toEqual(config);
      const land = (await (await fetch(`${running.url}/atlas/land.json`)).json()) as { type: string; objects: object };
      expect(land.type).toBe('Topology');
      expect(Object.keys(land.objects)).toContain('land');
      // The images Leaflet's stylesheet names relative to itself.
      expect((await fetch(`${running.url}/vendor/images/layers.png`)).headers.get('content-type')).toBe('image/png');
      // It depends on nothing, so it is ready as soon as it answers (the deploy files probe /readyz).
      for (const probe of ['/healthz', '/readyz']) expect((await fetch(`${running.url}${probe}`)).status).toBe(200);
      expect((await fetch(`${running.url}/nothing-here`)).status).toBe(404);
      expect((await fetch(`${running.url}/`, { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${running.url}/`)).headers.get('cache-control')).toBe('no-store');
    } finally {
      await running.stop();
    }
  }, 60_000);

  it('distributed mode: each area at FIELDCAST_<AREA>_URL, else at its container name and port', () => {
    const names = SERVICES.map((s) => s.area);
    const areas = areasFromEnv(names, { FIELDCAST_TILES_URL: 'https://tiles.example.com/' }, (area) => portOf(serviceNamed(area), 8080));
    expect(areas.tiles).toBe('https://tiles.example.com');
    expect(areas.agriculture).toBe('http://agriculture:8081');
    expect(Object.keys(areas).sort()).toEqual([...names].sort());
  });

  it('serve console refuses an area URL that is not http(s), naming the variable, before it listens', async () => {
    // refused before startConsole: nothing listens, so any free port does
    const env = parseEnv(FleetEnv, { PORT: '9434', HOST: '127.0.0.1' });
    for (const value of ['tiles.example.com', 'ftp://tiles.example.com']) {
      const refused = await serveConsole(env, { FIELDCAST_AGRICULTURE_URL: ' ', FIELDCAST_TILES_URL: value }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toBe(
        'Invalid environment:\n  FIELDCAST_TILES_URL: must be an http(s) URL such as https://tiles.example.com',
      );
    }
  });
});
