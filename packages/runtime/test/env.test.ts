import { SOURCES, sourceUrlVariable } from '@fieldcast/sync';
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

describe('KAFKA_BROKERS', () => {
  it('is host:port addresses, comma-separated; anything else stops start-up naming it, not read as a broker that is down', () => {
    expect(parseEnv(FleetEnv, { KAFKA_BROKERS: 'kafka-0.kafka:9092,10.0.0.7:9093, [::1]:19092' }).KAFKA_BROKERS).toEqual([
      'kafka-0.kafka:9092',
      '10.0.0.7:9093',
      '[::1]:19092',
    ]);
    for (const bad of ['garbage', 'kafka:', 'kafka:port', 'kafka:9092/x', 'kafka:70000', 'kafka://b:9092', 'a b:9092'])
      expect(() => parseEnv(FleetEnv, { KAFKA_BROKERS: `good:9092,${bad}` })).toThrow(
        /KAFKA_BROKERS: must be comma-separated broker addresses host:port, such as kafka:9092/,
      );
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

describe.each(['FIELDCAST_WEBHOOK_ALLOW_PRIVATE', 'FIELDCAST_TRUSTED_PROXIES'] as const)('%s', (name) => {
  it('names addresses and CIDR ranges, comma-separated; none when unset; anything else stops start-up naming it', () => {
    expect(parseEnv(FleetEnv, {})[name]).toEqual([]);
    expect(parseEnv(FleetEnv, { [name]: '127.0.0.1, 10.1.0.0/16,fd00::/8' })[name]).toEqual(['127.0.0.1', '10.1.0.0/16', 'fd00::/8']);
    for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x', '::ffff:10.0.0.0/40'])
      expect(() => parseEnv(FleetEnv, { [name]: `127.0.0.1,${bad}` })).toThrow(`${name}: "${bad}"`);
  });
});

describe('FIELDCAST_WEBHOOK_ALLOW_PRIVATE', () => {
  it('reads an entry as the kit reads every address range: an IPv4-mapped range is its IPv4 range', () => {
    expect(parseEnv(FleetEnv, { FIELDCAST_WEBHOOK_ALLOW_PRIVATE: '::ffff:10.0.0.0/120' }).FIELDCAST_WEBHOOK_ALLOW_PRIVATE).toEqual([
      '::ffff:10.0.0.0/120',
    ]);
  });
});

describe('the sync’s sources (FIELDCAST_SYNC_SOURCES, FIELDCAST_SOURCE_<NAME>_URL)', () => {
  const names = Object.keys(SOURCES) as (keyof typeof SOURCES)[];

  it('takes every source the sync knows, and names them all when refusing another', () => {
    expect(parseEnv(FleetEnv, { FIELDCAST_SYNC_SOURCES: names.join(', ') }).FIELDCAST_SYNC_SOURCES).toEqual(names);
    expect(() => parseEnv(FleetEnv, { FIELDCAST_SYNC_SOURCES: 'gfs-1p00' })).toThrow(
      `FIELDCAST_SYNC_SOURCES: must be comma-separated source names: ${names.join(', ')}`,
    );
  });

  it('reads the base-URL variable of every source the sync knows', () => {
    for (const name of names) {
      const variable = sourceUrlVariable(name);
      expect([variable, parseEnv(FleetEnv, { [variable]: 'http://mirror.test/' })]).toEqual([
        variable,
        expect.objectContaining({ [variable]: 'http://mirror.test/' }),
      ]);
    }
  });
});

describe('ports', () => {
  it('puts the console on PORT_BASE and each area at its definition’s offset from it', () => {
    expect(portOf(CONSOLE, 8080)).toBe(8080);
    expect(portOf({ port: 1 }, 8080)).toBe(8081);
    expect(portOf({ port: 9 }, 9000)).toBe(9009);
  });
});
