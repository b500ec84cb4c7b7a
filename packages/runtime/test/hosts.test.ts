import { FleetEnv, listenHost, parseEnv } from '../src/index.js';

describe('the address a fleet listens on', () => {
  it('unset HOST: loopback for the embedded fleet, every interface for serve', () => {
    const { HOST } = parseEnv(FleetEnv, {});
    expect(HOST).toBeUndefined();
    expect(listenHost('embedded', HOST)).toBe('127.0.0.1');
    expect(listenHost('distributed', HOST)).toBe('0.0.0.0');
    expect(listenHost('embedded', parseEnv(FleetEnv, { HOST: '  ' }).HOST)).toBe('127.0.0.1');
  });

  it('HOST, when set, wins in both modes', () => {
    expect(listenHost('embedded', parseEnv(FleetEnv, { HOST: '0.0.0.0' }).HOST)).toBe('0.0.0.0');
    expect(listenHost('distributed', parseEnv(FleetEnv, { HOST: '10.0.0.5' }).HOST)).toBe('10.0.0.5');
  });
});
