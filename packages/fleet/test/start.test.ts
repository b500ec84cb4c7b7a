import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { reservePortBase } from '@fieldcast/runtime/testing';
import { startFleet } from '../src/start.js';

const PORT_BASE = reservePortBase();

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'fieldcast-start-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const env = () => parseEnv(FleetEnv, { FIELDCAST_DATA_DIR: dataDir, PORT_BASE: String(PORT_BASE), LOG_LEVEL: 'silent' });

describe('fieldcast start (embedded)', () => {
  it('first start creates the demo account and serves every area; a later start reuses the account', async () => {
    const lines: string[] = [];
    const first = await startFleet(env(), { print: (l) => lines.push(l) });
    try {
      const saved = JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8'));
      expect(saved).toEqual(first.demo);
      expect(lines.join('\n')).toContain(saved.applicationKey);
      const auth = `Basic ${Buffer.from(`${saved.applicationId}:${saved.applicationKey}`).toString('base64')}`;
      for (const s of first.fleet.services) {
        // No HOST: the embedded fleet is reachable from this machine only.
        expect((s.server.address() as AddressInfo).address).toBe('127.0.0.1');
        expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      }
      const agriculture = first.fleet.services.find((s) => s.area === 'agriculture')!;
      expect(agriculture.url).toBe(`http://127.0.0.1:${env().PORT_BASE + 1}`);
      expect((await fetch(`${agriculture.url}/fields`, { headers: { Authorization: auth } })).status).toBe(200);
      // The console on PORT_BASE, told where the areas answer and prefilled with the demo account.
      expect(first.console.url).toBe(`http://127.0.0.1:${env().PORT_BASE}`);
      expect((await fetch(`${first.console.url}/`)).status).toBe(200);
      const consoleConfig = await (await fetch(`${first.console.url}/config.json`)).json();
      expect(consoleConfig.demo).toEqual(saved);
      expect(consoleConfig.areas.agriculture).toBe(agriculture.url);
      await expect(startFleet(env(), { print: () => undefined })).rejects.toThrow(/is using/);
    } finally {
      await first.fleet.stop();
    }
    const second = await startFleet(env(), { print: () => undefined });
    try {
      expect(second.demo).toEqual(first.demo);
    } finally {
      await second.fleet.stop();
    }
  }, 120_000);
});
