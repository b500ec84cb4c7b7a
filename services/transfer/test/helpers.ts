import type { Response } from 'supertest';
import { createCatalog, SyntheticSource, type GridSource, type TransferProductDef } from '@fieldcast/weather';
import { createTransferService } from '../src/definition.js';

/**
 * Small products over Iowa at 0.25 degrees (26 x 12 cells), so a test makes a file in well under
 * a second. The bounds put every cell centre on the synthetic world's 0.01 degree grid, so each
 * value in a file is the source's value at the cell's centre exactly.
 */
export const IOWA: [number, number, number, number] = [-96.625, 40.375, -90.125, 43.375];

export const PRODUCT = {
  tmax: 'air-temperature-daily-max-geotiff',
  extremesTiff: 'air-temperature-daily-extremes-geotiff',
  extremesNc: 'air-temperature-daily-extremes-netcdf',
  hourly: 'air-temperature-hourly-netcdf',
  shortwave: 'shortwave-radiation-hourly-netcdf',
  altitude: 'surface-altitude-geotiff',
} as const;

const regional = (name: string): Partial<TransferProductDef> & { name: string } => ({ name, bbox: IOWA, resolution: 0.25 });

/** The default catalog's transfer products, each over Iowa. */
export const testCatalog = () =>
  createCatalog({
    transferProducts: createCatalog()
      .transferProducts()
      .map((p) => regional(p.name)),
  });

/** Files made on the event loop, so a test can count the reads that make them; `threads` for the worker path. */
export const testTransferService = (threads = false) => createTransferService({ threads });

/** A wall clock tests move: the synthetic world's forecast horizon and the links' expiry follow it. */
export class TestClock {
  constructor(public ms = Date.UTC(2026, 5, 10, 12, 30)) {}
  now = () => new Date(this.ms);
}

/** The synthetic world behind a counter of the grid reads that make files (sub-grid, window and both-extremes reads). */
export function countingSource(clock: TestClock): { source: GridSource; reads: () => number } {
  const inner = new SyntheticSource({ now: () => clock.ms });
  let reads = 0;
  const source = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if ((key === 'subgrid' || key === 'window' || key === 'dailyExtremesIn') && typeof value === 'function') {
        return (...args: unknown[]) => {
          reads++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { source, reads: () => reads };
}

/** A download's body as bytes (supertest keeps binary bodies as Buffers only when told to). */
export function binary(res: Response, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/** The path and query of an absolute link, for supertest. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
