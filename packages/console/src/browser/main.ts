/// <reference lib="dom" />
import type L from 'leaflet';
import { AlertsPanel } from './alerts.js';
import { Api, ApiError, type Config } from './api.js';
import { ArchiveMarkers } from './archive.js';
import { AssetsPanel } from './assets.js';
import { DegreeDaysPanel } from './degree-days.js';
import { FeedPanel } from './feed.js';
import { byId, FieldsPanel } from './fields.js';
import { createMap } from './map.js';
import { mapKeyAction } from './map-keys.js';
import { placeAt } from './place.js';
import { PointPanel } from './point.js';
import { showError, showMessage, withProgress } from './status.js';
import { TilesPanel } from './tiles.js';

/** The console page: sign in, then the map and its panels (docs/architecture.md §2). */
async function main(): Promise<void> {
  const config = (await (await fetch('/config.json')).json()) as Config;
  const api = new Api(config);
  const form = byId<HTMLFormElement>('sign-in');
  const refusal = api.takeRefusal();
  if (refusal !== null) showMessage(refusal);
  const resumed = api.signedIn !== null && (await keyStillValid(api));
  if (config.demo && !api.signedIn) {
    byId<HTMLInputElement>('application-id').value = config.demo.applicationId;
    byId<HTMLInputElement>('application-key').value = config.demo.applicationKey;
    byId('demo-hint').hidden = false;
  }
  let opened: Promise<void> | null = null;
  const open = () => (opened ??= openConsole(api));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const applicationId = byId<HTMLInputElement>('application-id').value.trim();
    const applicationKey = byId<HTMLInputElement>('application-key').value.trim();
    void signIn(api, { applicationId, applicationKey }).then(async (ok) => {
      if (ok) await open();
    });
  });
  form.querySelector('button[type=submit]')!.removeAttribute('disabled');
  byId('sign-out').addEventListener('click', () => {
    api.signOut();
    location.reload();
  });
  if (resumed) await open();
}

/**
 * Whether the key the tab kept still opens the console. It may have been revoked since it was
 * typed (docs/interface.md §1, Credentials: `fieldcast keys`): then every area would refuse it,
 * so the sign-in form comes back with the refusal instead of a console of error messages. Any
 * other failure (an area restarting) leaves the key to the panels, which say what failed.
 */
async function keyStillValid(api: Api): Promise<boolean> {
  try {
    await api.json('agriculture', '/fields?limit=1');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      api.signOut();
      showError(err);
      return false;
    }
  }
  return true;
}

/** Checks the credentials against the agriculture area before opening the console. */
async function signIn(api: Api, credentials: { applicationId: string; applicationKey: string }): Promise<boolean> {
  api.signIn(credentials);
  try {
    await api.json('agriculture', '/fields?limit=1');
    return true;
  } catch (err) {
    api.signOut();
    showError(err);
    return false;
  }
}

async function openConsole(api: Api): Promise<void> {
  // A key refused while the console is open (revoked since): the sign-in form with the refusal
  // once, as keyStillValid gives it at load, not a message from every panel that asked. Loading
  // the page again stops the panels' requests and polls; the refusal waits in the tab for it.
  let refused = false;
  api.onRefused((err) => {
    if (refused) return;
    refused = true;
    api.signOut(err.message);
    location.reload();
  });
  byId('sign-in').hidden = true;
  byId('app').hidden = false;
  byId('sign-out').hidden = false;
  const map = await withProgress(() => createMap(byId('map')));
  // The map, for the browser tests and anyone in the developer tools.
  (window as unknown as { fieldcastMap: L.Map }).fieldcastMap = map;
  const degreeDays = new DegreeDaysPanel(api, map);
  const feed = new FeedPanel(api);
  const alerts = new AlertsPanel(api);
  const fields = new FieldsPanel(
    api,
    map,
    (field) => {
      void degreeDays.showField(field);
      void alerts.showField(field);
      feed.setResource(field?.id ?? null);
    },
    (field) => feed.resourceChanged({ namespace: 'agriculture/fields', id: field.id }),
  );
  const tiles = new TilesPanel(api, map);
  const point = new PointPanel(api, degreeDays, new ArchiveMarkers(api, map));
  map.on('click', (e: L.LeafletMouseEvent) => {
    if (fields.drawing) return;
    void point.show(placeAt(e.latlng));
  });
  const container = map.getContainer();
  container.addEventListener('keydown', (e) => {
    if (mapKeyAction(e.key, e.target === container, fields.drawing) !== 'pick') return;
    e.preventDefault();
    void point.show(placeAt(map.getCenter()));
  });
  void degreeDays.showField(null);
  void alerts.showField(null);
  feed.start();
  await Promise.all([fields.load(), tiles.load(), new AssetsPanel(api, map).load()]);
  document.body.dataset.ready = 'true';
}

main().catch(showError);
