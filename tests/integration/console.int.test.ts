// The console in a real browser (docs/decisions/0190-console-served-by-the-fleet.md): Debian's
// chromium driven by playwright-core against an embedded fleet, as `pnpm start` runs it. Each
// page state is screenshotted into test-output/console/; the screenshot in docs/areas.md (a field
// with its degree days, contours and events over the weather) is written to docs/console.png. Any
// browser console error fails the test.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { eventually, reservePortBase } from '@fieldcast/runtime/testing';
import {
  launchChromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
  type Response,
} from '../../packages/console/src/testing.js';
import { startFleet, type StartedFleet } from '../../packages/fleet/src/start.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUTPUT = join(ROOT, 'test-output', 'console');

let dataDir: string;
let started: StartedFleet;
let browser: Browser;
let auth: string;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(OUTPUT, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-console-'));
  const env = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    PORT_BASE: String(reservePortBase()),
    LOG_LEVEL: 'silent',
  });
  started = await startFleet(env, { print: () => undefined });
  const demo = started.demo!;
  auth = `Basic ${Buffer.from(`${demo.applicationId}:${demo.applicationKey}`).toString('base64')}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await started?.fleet.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const areaUrl = (area: string) => started.fleet.services.find((s) => s.area === area)!.url;

/** A page that records console errors and the tiles it received. */
async function openPage(context: BrowserContext) {
  const page = await context.newPage();
  const errors: string[] = [];
  const tiles: { url: string; bytes: number; type: string }[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (err: Error) => errors.push(`uncaught: ${err.message}`));
  page.on('response', async (response: Response) => {
    if (!/\/tile\/\d+\/\d+\/\d+\.png/.test(response.url()) || response.status() !== 200) return;
    // The page reads a tile with fetch() and hands its blob to the image, so the protocol may have
    // released the body by now: the size the server declared is the one to check.
    const declared = Number(response.headers()['content-length'] ?? 0);
    const bytes = declared > 0 ? declared : (await response.body().catch(() => Buffer.alloc(0))).length;
    tiles.push({ url: response.url(), bytes, type: response.headers()['content-type'] ?? '' });
  });
  return { page, errors, tiles };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUTPUT, `${name}.png`) });
}

async function signIn(page: Page): Promise<void> {
  await page.goto(started.console.url);
  // Embedded mode: the demo account is prefilled (decision 0191).
  await expectValue(page, '#application-id', started.demo!.applicationId);
  await page.click('#sign-in button[type=submit]');
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
}

async function expectValue(page: Page, selector: string, value: string): Promise<void> {
  expect(await page.inputValue(selector)).toBe(value);
}

/** Clicks the map at fractions of its width and height. */
async function clickMap(page: Page, points: [number, number][]): Promise<void> {
  const box = (await page.locator('#map').boundingBox())!;
  for (const [fx, fy] of points) await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

describe('the console in Chromium', () => {
  it('signs in, shows tiles, draws a field with degree days and contours, the event feed, styles, errors', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors, tiles } = await openPage(context);
    try {
      await page.goto(started.console.url);
      await shot(page, '01-sign-in');
      // A wrong key: the area's problem message, not a blank page.
      await page.fill('#application-key', 'fc1.wrong');
      await page.click('#sign-in button[type=submit]');
      await page.waitForSelector('.message');
      expect(await page.textContent('#messages')).toMatch(/agriculture: /);
      await page.click('.message button');
      errors.splice(0); // the 401 of this deliberate wrong key is logged by the browser
      await page.fill('#application-key', started.demo!.applicationKey);
      await page.click('#sign-in button[type=submit]');
      await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
      // The base map (world-atlas land as vectors) and the weather tiles.
      expect(await page.locator('.leaflet-basemap-pane path').count()).toBeGreaterThan(0);
      await atLeastOne(() => tiles.length, 240_000);
      for (const tile of tiles) {
        expect(tile.type).toBe('image/png');
        expect(tile.bytes).toBeGreaterThan(100);
      }
      // and the browser decoded them into 256-pixel images on the map
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLImageElement>('img.leaflet-tile')).some(
            (img) => img.complete && img.naturalWidth === 256,
          ),
        undefined,
        { timeout: 60_000 },
      );
      expect(await page.locator('#legend span').count()).toBeGreaterThan(1);
      await shot(page, '02-signed-in-tiles');

      // Draw a field: zoom in over Kansas, click four corners, finish.
      await page.click('#draw');
      await zoomTo(page, 38.5, -98.5, 11);
      await clickMap(page, [
        [0.4, 0.4],
        [0.6, 0.4],
        [0.6, 0.6],
        [0.4, 0.6],
      ]);
      await page.click('#finish');
      await page.waitForSelector('#fields li[data-id]');
      const fieldId = await page.getAttribute('#fields li[data-id]', 'data-id');
      expect(fieldId).toMatch(/^[0-9a-f-]{36}$/);
      const stored = await fetch(`${areaUrl('agriculture')}/fields/${fieldId}`, { headers: { Authorization: auth } });
      expect(stored.status).toBe(200);
      // Its degree days and contours, with a legend.
      await page.waitForSelector('#gdd[data-state=loaded]', { timeout: 240_000 });
      expect(await page.textContent('#gdd')).toMatch(/Field mean\s*-?\d/);
      expect(await page.locator('#gdd-legend span').count()).toBeGreaterThan(0);
      await shot(page, '03-field-degree-days');

      // The creation event in the feed (polled).
      await page.selectOption('#feed-kind', 'resource');
      await atLeastOne(async () => page.locator('#feed li[data-id]').count(), 30_000);
      await shot(page, '04-feed');
      // An alert on the field: a frost rule in one click, listed with its state.
      await page.click('#alert-add-frost');
      await page.waitForSelector('#alerts li[data-id]', { timeout: 30_000 });
      expect(await page.textContent('#alerts')).toMatch(/Frost on .* · (waiting for its field|not evaluated yet|holding: |clear: )/);
      // The docs' picture: the field over the weather tiles, with last summer's degree days, their
      // contours and legend, and the field's events. Notices fade by themselves.
      const summer = new Date().getUTCFullYear() - 1;
      await page.fill('#gdd-start', `${summer}-05-01`);
      await page.fill('#gdd-end', `${summer}-08-31`);
      await page.dispatchEvent('#gdd-end', 'change');
      await page.waitForSelector('#gdd[data-state=loaded]', { timeout: 240_000 });
      await page
        .locator('.message')
        .waitFor({ state: 'detached', timeout: 30_000 })
        .catch(() => undefined);
      await page.screenshot({ path: join(ROOT, 'docs', 'console.png'), type: 'png' });

      // Edit the field's shape. A vertex dragged across the far edge is refused: the problem's
      // message at the failing ring, and nothing stored; Cancel leaves the field as it was.
      const before = await storedRing(fieldId!);
      await page.click(`#fields li[data-id="${fieldId}"] button[aria-label^="Edit the shape"]`);
      await page.waitForSelector('#shape-edit:not([hidden])');
      expect(await page.locator('.vertex-handle').count()).toBe(4);
      // the corners by where they are on the screen, whichever way the area stored the ring
      const corners = await handleCentres(page, '.vertex-handle');
      const topLeft = extreme(corners, (p) => -(p.x + p.y));
      const bottomRight = extreme(corners, (p) => p.x + p.y);
      const across = { x: topLeft.x + (bottomRight.x - topLeft.x) * 1.3, y: topLeft.y + (bottomRight.y - topLeft.y) * 0.5 };
      await drag(page, topLeft, across);
      await page.click('#save-shape');
      await page.waitForSelector('.ring-error');
      expect(await page.textContent('.ring-error')).toMatch(/\w/);
      await shot(page, '05-invalid-shape');
      expect(await storedRing(fieldId!)).toEqual(before);
      await page.click('#cancel-shape');
      await page.click('.message:has-text("crosses itself") button');
      // Leaflet fades a tooltip out before removing it
      await page.waitForSelector('.ring-error', { state: 'detached' });
      expect(await page.locator('.vertex-handle, .midpoint-handle').count()).toBe(0);

      // Add a vertex in the bottom edge and pull it down, remove the top left one: saved with the
      // agriculture area's PUT, then the field's degree days for its new shape.
      await page.click(`#fields li[data-id="${fieldId}"] button[aria-label^="Edit the shape"]`);
      const bottomMiddle = extreme(await handleCentres(page, '.midpoint-handle'), (p) => p.y);
      await page.mouse.click(bottomMiddle.x, bottomMiddle.y);
      expect(await page.locator('.vertex-handle').count()).toBe(5);
      const added = extreme(await handleCentres(page, '.vertex-handle'), (p) => -Math.hypot(p.x - bottomMiddle.x, p.y - bottomMiddle.y));
      await drag(page, added, { x: added.x, y: added.y + (bottomRight.y - topLeft.y) * 0.5 });
      const first = extreme(await handleCentres(page, '.vertex-handle'), (p) => -(p.x + p.y));
      await page.mouse.click(first.x, first.y);
      expect(await page.locator('.vertex-handle').count()).toBe(4);
      await shot(page, '06-editing-shape');
      await page.click('#save-shape');
      await page.waitForSelector('.message.info >> text=/Shape of .* saved/');
      const after = await storedRing(fieldId!);
      expect(after).toHaveLength(5);
      // the top left corner (least longitude minus latitude) is gone
      expect(after).not.toContainEqual(extreme(before, ([lon, lat]) => lat - lon));
      // the pulled vertex lies south of the field's old bottom edge
      expect(Math.min(...after.map(([, lat]) => lat))).toBeLessThan(Math.min(...before.map(([, lat]) => lat)));
      await page.waitForSelector('#gdd[data-state=loaded]', { timeout: 240_000 });
      expect(await page.textContent('#gdd')).toMatch(/Field mean\s*-?\d/);
      expect(await page.locator('.vertex-handle').count()).toBe(0);
      await shot(page, '07-field-reshaped');

      // A contributed style appears in the picker; choosing it requests tiles with it.
      const style = await createStyle();
      await page.selectOption('#product', 'precipitation-rate');
      await page.selectOption('#product', 'air-temperature');
      // as long as the other waits: on a busy machine the areas answer slowly
      await page.waitForSelector(`#style option[value="${style.id}"]`, { state: 'attached', timeout: 240_000 });
      await page.selectOption('#style', style.id);
      await zoomTo(page, 38.5, -98.5, 4);
      await atLeastOne(() => tiles.filter((t) => t.url.includes(style.id)).length, 240_000);
      expect(await page.textContent('#legend')).toContain('15');
      await shot(page, '08-contributed-style');

      // A bow-tie ring is refused: the problem's message at the failing ring.
      await page.click('#draw');
      await zoomTo(page, 39.5, -99.5, 11);
      await clickMap(page, [
        [0.4, 0.4],
        [0.6, 0.6],
        [0.6, 0.4],
        [0.4, 0.6],
      ]);
      await page.click('#finish');
      await page.waitForSelector('.ring-error');
      expect(await page.textContent('.ring-error')).toMatch(/\w/);
      await shot(page, '09-invalid-geometry');
      // The browser logs the deliberate 422; nothing else may be logged.
      const unexpected = errors.filter((e) => !/status of 422/.test(e));
      expect(unexpected).toEqual([]);
    } finally {
      await context.close();
    }
  }, 900_000);

  it("a point's degree days by the method and cutoff chosen with their accumulation curve, and its chill in the model chosen", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await openPage(context);
    try {
      await signIn(page);
      await zoomTo(page, 38.5, -98.5, 9);
      const requests: string[] = [];
      page.on('request', (request) => {
        if (/\/(growing-degree-days|chill)\//.test(request.url())) requests.push(request.url());
      });
      await page.selectOption('#gdd-method', 'single-triangle');
      await page.fill('#gdd-cap', '30');
      await page.selectOption('#gdd-cutoff', 'vertical');
      await page.selectOption('#chill-model', 'utah');
      await clickMap(page, [[0.5, 0.5]]);
      await page.waitForFunction(
        () => /Utah chill units since \d{4}-\d\d-\d\d/.test(document.querySelector('#point-chill')?.textContent ?? ''),
        undefined,
        {
          timeout: 120_000,
        },
      );
      await page.waitForFunction(() => /degree days \(base 10/.test(document.querySelector('#point')?.textContent ?? ''), undefined, {
        timeout: 120_000,
      });
      const point = requests.find((u) => /growing-degree-days\/-?\d+\.\d+\//.test(u)) ?? '';
      const asked = new URL(point).searchParams;
      expect([asked.get('method'), asked.get('cap'), asked.get('cutoff'), asked.get('include')]).toEqual([
        'single-triangle',
        '30',
        'vertical',
        'daily',
      ]);
      // The accumulation curve from the same answer's daily values (docs/interface.md §3, include=daily).
      const curve = page.locator('#charts figure', { hasText: 'Degree days accumulated' });
      await curve.and(page.locator('[data-state=loaded]')).waitFor({ timeout: 120_000 });
      expect(await curve.locator('canvas').count()).toBe(1);
      await curve.scrollIntoViewIfNeeded();
      expect(requests.some((u) => /\/chill\/.*model=utah.*include=daily/.test(u))).toBe(true);
      const chillCurve = page.locator('#charts figure', { hasText: 'Chill accumulated' });
      await chillCurve.and(page.locator('[data-state=loaded]')).waitFor({ timeout: 120_000 });
      await shot(page, '11-point-chill');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('works on a 390 px phone screen and from the keyboard', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const { page, errors } = await openPage(context);
    try {
      await signIn(page);
      // Nothing wider than the screen: the panels stack under the map.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const map = (await page.locator('#map').boundingBox())!;
      const panels = (await page.locator('#panels').boundingBox())!;
      expect(panels.y).toBeGreaterThanOrEqual(map.y + map.height - 1);
      await shot(page, '10-phone');
      // The draw button is reachable with Tab and works with Enter.
      await page.focus('#product');
      for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.id)) !== 'draw'; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('draw');
      await page.keyboard.press('Enter');
      expect(await page.isVisible('#cancel')).toBe(true);
      await page.click('#cancel');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 200_000);
});

type Point = { x: number; y: number };

/** The centres of the shape editor's handles on the screen, in the order the page added them. */
async function handleCentres(page: Page, selector: string): Promise<Point[]> {
  const boxes = await page.locator(selector).evaluateAll((elements) =>
    elements.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }),
  );
  return boxes;
}

/** The item scoring highest. */
function extreme<T>(items: T[], score: (item: T) => number): T {
  return items.reduce((best, item) => (score(item) > score(best) ? item : best));
}

/** Drags with the mouse in steps, as a person would, so Leaflet sees a drag and not a click. */
async function drag(page: Page, from: Point, to: Point): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

/** The field's first ring as the agriculture area stored it. */
async function storedRing(id: string): Promise<[number, number][]> {
  const response = await fetch(`${areaUrl('agriculture')}/fields/${id}`, { headers: { Authorization: auth } });
  expect(response.status).toBe(200);
  const field = (await response.json()) as { geometries: { coordinates: [number, number][][][] }[] };
  return field.geometries[0]!.coordinates[0]![0]!;
}

async function zoomTo(page: Page, lat: number, lon: number, zoom: number): Promise<void> {
  await page.evaluate(
    ([la, lo, z]: readonly [number, number, number]) =>
      (window as unknown as { fieldcastMap: { setView(c: [number, number], z: number, o: object): void } }).fieldcastMap.setView(
        [la, lo],
        z,
        { animate: false },
      ),
    [lat, lon, zoom] as const,
  );
}

/** A contributed style for air temperature through the tiles area, as any client would. */
async function createStyle(): Promise<{ id: string }> {
  const response = await fetch(`${areaUrl('tiles')}/v2/products/air-temperature/styles`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: `Warm only ${process.pid}`,
      description: 'above 15 degrees in reds',
      layerName: 'air_temperature',
      colorizers: [
        {
          defaultColor: 'rgba(0, 0, 0, 0)',
          defaultMode: 'discrete',
          stops: [
            { value: 15, color: '#fcae91' },
            { value: 25, color: '#cb181d' },
          ],
        },
      ],
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

/** Waits until count() is above zero (tiles and feeds arrive asynchronously). */
async function atLeastOne(count: () => number | Promise<number>, timeoutMs: number): Promise<void> {
  await eventually(async () => expect(await count()).toBeGreaterThan(0), timeoutMs, 250);
}
