import { ConfigError, FleetEnv, parseEnv } from '../src/env.js';
import { CONSOLE, portOf } from '../src/ports.js';

describe('environment', () => {
  it('defaults to the embedded set-up', () => {
    const env = parseEnv(FleetEnv, {});
    expect(env).toMatchObject({ PORT_BASE: 8080, FIELDCAST_VENDOR: 'fieldcast', FIELDCAST_DATA_DIR: '.data' });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('a bad variable stops start-up with a message naming it', () => {
    expect(() => parseEnv(FleetEnv, { PORT_BASE: 'eighty' })).toThrow(ConfigError);
    expect(() => parseEnv(FleetEnv, { PORT_BASE: 'eighty' })).toThrow(/PORT_BASE/);
    expect(() => parseEnv(FleetEnv, { DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(parseEnv(FleetEnv, { KAFKA_BROKERS: 'a:9092, b:9092' }).KAFKA_BROKERS).toEqual(['a:9092', 'b:9092']);
  });
});

describe('BODY_LIMIT', () => {
  it('is a size in bytes, kB, MB or GB; anything else stops start-up naming it, before a database is opened', () => {
    for (const size of ['1mb', '512kb', '2 MB', '1.5gb', '1048576', '100b'])
      expect(parseEnv(FleetEnv, { BODY_LIMIT: size }).BODY_LIMIT).toBe(size);
    for (const bad of ['lots', '1 megabyte', '1m', '-1mb', ''])
      expect(() => parseEnv(FleetEnv, { BODY_LIMIT: bad })).toThrow(/BODY_LIMIT: must be a size such as 1mb/);
  });
});

describe('FIELDCAST_WEBHOOK_ALLOW_PRIVATE', () => {
  it('names addresses and CIDR ranges, comma-separated; none when unset; anything else stops start-up naming it', () => {
    expect(parseEnv(FleetEnv, {}).FIELDCAST_WEBHOOK_ALLOW_PRIVATE).toEqual([]);
    expect(
      parseEnv(FleetEnv, { FIELDCAST_WEBHOOK_ALLOW_PRIVATE: '127.0.0.1, 10.1.0.0/16,fd00::/8' }).FIELDCAST_WEBHOOK_ALLOW_PRIVATE,
    ).toEqual(['127.0.0.1', '10.1.0.0/16', 'fd00::/8']);
    for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x'])
      expect(() => parseEnv(FleetEnv, { FIELDCAST_WEBHOOK_ALLOW_PRIVATE: bad })).toThrow(/FIELDCAST_WEBHOOK_ALLOW_PRIVATE/);
  });
});

describe('ports', () => {
  it('puts the console on PORT_BASE and each area at its definition’s offset from it', () => {
    expect(portOf(CONSOLE, 8080)).toBe(8080);
    expect(portOf({ port: 1 }, 8080)).toBe(8081);
    expect(portOf({ port: 9 }, 9000)).toBe(9009);
  });
});
