/**
 * Runs written by ecCodes in each source's own layout (tests/integration/grib2_eccodes.py), synced
 * by `fieldcast sync <source> --once` from a local stand-in archive into one running fleet, then
 * read through every area that serves synced data: the model area's series (at a grid point, and
 * bilinear between grid points), the platform area's datapoints of the synced products, the tiles
 * area's pixels (a discrete style: the nearest grid point's value), and the transfer area's files
 * as netCDF-C (xarray) and GDAL (gdallocationinfo) read them. Every value must follow from
 * ecCodes' decoded values of the messages, in the units the interface states (K to °C, Pa to kPa,
 * 10 m wind to 2 m by FAO-56 eq. 47, accumulations to mm/h and W m-2), at the valid time its run
 * and step name (docs/decisions/0230-sync-sources-and-variables.md, 0250, 0255, 0315, 0340, 0379):
 * - `gfs-0p25`, a GFS run as NOAA publishes it: NCEP's parameter numbers, wgrib2's `.idx`,
 *   longitudes 0..360, statistics over intervals restarted every 6 hours, hourly steps;
 * - `ecmwf-ifs-0p25`, an ECMWF open data HRES run: ECMWF's shortNames in a JSON lines `.index`,
 *   CCSDS packing, a box of ECMWF's global grid from its first column (180, the antimeridian),
 *   `tp` (m) and `ssrd` (J m-2) accumulated from the start, steps every 3 hours then every 6.
 * Between steps more than an hour apart a run's store is hourly (0250): instants linear in time
 * between the steps, a mean rate at hour h the mean over the step interval holding (h - 1 h, h].
 *
 * ecCodes (python3-eccodes), GDAL (gdal-bin) and xarray with netCDF4 are needed: .ci/run installs
 * them; without them this file fails naming what is missing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FleetEnv, parseEnv } from '@fieldcast/runtime';
import { databaseTemplate, reservePortBase } from '@fieldcast/runtime/testing';
import { startFleet, type StartedFleet } from '../../packages/fleet/src/start.js';
import { syncCommand } from '../../packages/fleet/src/sync.js';
import { type ArchiveServer, serveArchive } from '../../packages/sync/test/archive-server.js';
import { decodePng, pixelAt } from '../../services/tiles/test/png-decode.js';
import {
  DAY,
  HOUR,
  RATES,
  type Reference,
  type SourceRun,
  TODAY,
  bilinear,
  closeServed,
  closeStored,
  ecmwfRun,
  expectLatestForecast,
  expectations,
  fleetApi,
  gfsRun,
  iso,
  isoShort,
  range,
  requireTools,
  run,
  writeRun,
} from './synced-eccodes.js';

/** One synced source, its run and where each area is looked at. */
interface Case extends SourceRun {
  /** The catalog's transfer products over the grid: `<box>-temperature`, `<box>-precipitation`. */
  box: string;
  bbox: [number, number, number, number];
  /** The tiles' style's lowest class, °C. */
  styleFrom: number;
  tileSteps: number[];
  /** The day (UTC) whose hourly netCDF is read, and the hours (UTC ms) GeoTIFFs are read at. */
  netcdfDay: number;
  geotiffHours: number[];
}

/** Runs two days back (synced runs expire on the clock). */
const GFS_RUN = TODAY - 2 * DAY + 6 * HOUR;
/** ECMWF's 12Z run writes 0 to 144 h by 3, then to 240 h by 6 (sources.ts); synced to 156 h. */
const ECMWF_RUN = TODAY - 2 * DAY + 12 * HOUR;

const CASES: Case[] = [
  {
    // Across two of GFS's 6-hour restarts, the last step in the run's UTC day.
    ...gfsRun(GFS_RUN, range(0, 13, 1)),
    box: 'iowa',
    bbox: [-94.625, 41.375, -92.625, 42.625],
    styleFrom: 0,
    tileSteps: [0, 5, 7, 13],
    netcdfDay: TODAY - 2 * DAY,
    geotiffHours: [1, 6, 7, 13].map((h) => GFS_RUN + h * HOUR),
  },
  {
    ...ecmwfRun(ECMWF_RUN, [...range(0, 144, 3), 150, 156]),
    box: 'fiji',
    bbox: [-180, -17.875, -178, -16.375],
    styleFrom: -15,
    tileSteps: [0, 3, 144, 150],
    // Hours 132 to 155 of the run: 3-hourly steps to 144, then 150 and 156.
    netcdfDay: ECMWF_RUN + 132 * HOUR,
    geotiffHours: [132, 133, 146, 155].map((h) => ECMWF_RUN + h * HOUR),
  },
];

/** Transfer products over each run's grid, in the synced sources' own products too (docs/decisions/0340). */
const CATALOG = `
transferProducts:
${CASES.map(
  (c) => `  - name: ${c.box}-temperature
    description: Hourly 2 m air temperature over the ${c.source} test grid
    format: GeoTIFF
    variable: air_temperature
    cadenceMinutes: 60
    bbox: [${c.bbox.join(', ')}]
    resolution: 0.25
  - name: ${c.box}-precipitation
    description: Hourly precipitation rate over the ${c.source} test grid
    format: GeoTIFF
    variable: precipitation_rate
    cadenceMinutes: 60
    bbox: [${c.bbox.join(', ')}]
    resolution: 0.25
`,
).join('')}`;

let python: string;
let archive: string;
let dataDir: string;
let server: ArchiveServer;
let started: StartedFleet;
let auth: string;
/** ecCodes' messages by source, step and parameter key. */
const reference = new Map<string, Reference>();

const { url, get } = fleetApi(() => started);

beforeAll(async () => {
  python = requireTools();
  archive = mkdtempSync(join(tmpdir(), 'synced-eccodes-archive-'));
  dataDir = mkdtempSync(join(tmpdir(), 'synced-eccodes-data-'));
  for (const c of CASES) reference.set(c.source, writeRun(python, c, archive));
  server = await serveArchive(archive);
  writeFileSync(join(archive, 'catalog.yaml'), CATALOG);
  const env = parseEnv(FleetEnv, {
    FIELDCAST_CATALOG: join(archive, 'catalog.yaml'),
    FIELDCAST_DATA_DIR: dataDir,
    PORT_BASE: String(reservePortBase()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FIELDCAST_SYNC_RELOAD_MS: '200',
  });
  started = await startFleet(env, { databaseSeed: await databaseTemplate(), print: () => undefined });
  auth = fleetApi(() => started).auth();
  const syncEnv = parseEnv(FleetEnv, {
    FIELDCAST_DATA_DIR: dataDir,
    FIELDCAST_SOURCE_GFS_0P25_URL: server.baseUrl,
    FIELDCAST_SOURCE_ECMWF_IFS_0P25_URL: server.baseUrl,
  });
  for (const c of CASES) {
    const lines: string[] = [];
    const hh = `${iso(c.runMs).slice(0, 13)}Z`;
    await syncCommand([c.source, '--once', '--run', hh, '--steps', `0-${c.steps.at(-1)}`], syncEnv, (l) => lines.push(l));
    expect(lines.at(-1)).toMatch(new RegExp(`${c.steps.length} steps`));
  }
  // The areas take the runs within the reload period.
  for (const c of CASES)
    for (let k = 0; k < 100; k++) {
      const [lat, lon] = c.gridPoints[1]!;
      const res = await fetch(`${url('model')}/models/${c.source}/latest-forecast/timeseries/${lat}/${lon}`, {
        headers: { Authorization: auth },
      });
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
}, 300_000);
afterAll(async () => {
  await started?.fleet.stop();
  await server?.close();
  for (const dir of [archive, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Frame {
  id: string;
  validTime: string;
}

interface DatasetRecord {
  name: string;
  validTime?: string | null;
  validTimes?: string[];
  downloadUrl: string;
}

/** The file behind a dataset's link, saved to `file` once made (503 while it is being made). */
async function download(d: DatasetRecord, file: string): Promise<string> {
  let res = await fetch(d.downloadUrl);
  for (let k = 0; res.status === 503 && k < 150; k++) {
    await new Promise((r) => setTimeout(r, 200));
    res = await fetch(d.downloadUrl);
  }
  expect(res.status).toBe(200);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

describe.each(CASES)('$source', (c) => {
  /**
   * A synced product's frames: the analysis' hours, hourly from the run's start to the next run's
   * (6 hours; mean rates an hour later), then the run's steps after them (docs/decisions/0250,
   * "Analysis"; 0315, "Frames").
   */
  const framesOf = (name: string) => {
    const analysis = RATES.has(name) ? range(1, 6, 1) : range(0, 5, 1);
    return [...analysis, ...c.steps.filter((h) => h > analysis.at(-1)!)];
  };

  describe('the model area', () => {
    it.each([
      ...c.gridPoints.map(([la, lo]) => [`at grid point ${la}, ${lo}`, la, lo, false] as const),
      [`between grid points, at ${c.between.join(', ')} (bilinear)`, ...c.between, true] as const,
    ])("serves ecCodes' values %s, at run + step for every step to the last, in the interface's units", async (_name, lat, lon, between) =>
      expectLatestForecast(c, reference.get(c.source)!, get, lat, lon, between),
    );
  });

  describe('the platform area', () => {
    it.each([
      [`${c.source}.air-temperature`, 'temperature', '°C'],
      [`${c.source}.precipitation-rate`, 'precipitationRate', 'mm/h'],
    ] as const)("%s: frames at run + step, and datapoints of ecCodes' values at and between grid points", async (product, name, label) => {
      const expected = expectations(c, reference.get(c.source)!);
      const frames = await get<Frame[]>('platform', `/products/${product}/frames?sort=asc&limit=1000`);
      expect(frames.map((f) => f.validTime)).toEqual(framesOf(name).map((h) => isoShort(c.runMs + h * HOUR)));
      const wrong: unknown[] = [];
      for (const f of frames) {
        const h = (Date.parse(f.validTime) - c.runMs) / HOUR;
        for (const [lat, lon, between] of [...c.gridPoints.map(([la, lo]) => [la, lo, false] as const), [...c.between, true] as const]) {
          const point = await get<{ value: number | null; unit: { label: string } }>('platform', `/frames/${f.id}/datapoint/${lat}/${lon}`);
          expect(point.unit.label).toBe(label);
          const at = (la: number, lo: number) => expected[name]!(h, la, lo);
          const value = between ? bilinear(c, at, lat, lon) : at(lat, lon);
          if (point.value === null || !closeServed(point.value, value, RATES.has(name) ? c.rateSlack : 0))
            wrong.push({ step: h, lat, lon, served: point.value, eccodes: value });
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  describe('the tiles area', () => {
    /** 1000 classes of 0.03 °C from `styleFrom`, class k drawn as red k % 256 and green k / 256: a pixel names its class. */
    const STYLE = {
      name: `${c.source}-temperature-classes`,
      description: `Classes of 0.03 °C from ${c.styleFrom} to ${c.styleFrom + 30} °C`,
      layerName: 'air_temperature',
      colorizers: [
        {
          defaultColor: 'rgba(0, 0, 0, 0)',
          defaultMode: 'discrete',
          stops: Array.from({ length: 1000 }, (_, k) => ({
            value: Math.round(c.styleFrom * 100 + k * 3) / 100,
            color: `rgba(${k % 256}, ${k >> 8}, 0, 1)`,
          })),
        },
      ],
    };

    it("draws each grid point's ecCodes value, in a discrete style, at the pixel the datapoint names", async () => {
      const expected = expectations(c, reference.get(c.source)!);
      const product = `${c.source}.air-temperature`;
      const created = await fetch(`${url('tiles')}/v2/products/${product}/styles`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(STYLE),
      });
      expect(created.status).toBe(201);
      const frames = await get<Frame[]>('platform', `/products/${product}/frames?sort=asc&limit=1000`);
      const wrong: unknown[] = [];
      for (const h of c.tileSteps) {
        const frame = frames.find((f) => f.validTime === isoShort(c.runMs + h * HOUR))!;
        // each grid point's value at the pixel its datapoint names, a corner's too (docs/decisions/0441)
        for (const [lat, lon] of c.gridPoints) {
          const point = await get<{ tile: { z: number; x: number; y: number }; pixel: { row: number; column: number } }>(
            'platform',
            `/frames/${frame.id}/datapoint/${lat}/${lon}`,
          );
          const { z, x, y } = point.tile;
          const res = await fetch(`${url('tiles')}/v2/frames/${frame.id}/tile/${z}/${x}/${y}.png?style=${STYLE.name}`, {
            headers: { Authorization: auth, Accept: 'image/png' },
          });
          expect(res.status).toBe(200);
          const [red, green, , alpha] = pixelAt(decodePng(Buffer.from(await res.arrayBuffer())), point.pixel.row, point.pixel.column);
          const low = c.styleFrom + (red! + 256 * green!) * 0.03;
          const value = expected.temperature!(h, lat, lon)!;
          if (alpha !== 255 || value < low - 1e-4 || value >= low + 0.03 + 1e-4)
            wrong.push({ step: h, lat, lon, drawnFrom: low, alpha, eccodes: value });
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  describe('the transfer area', () => {
    it.each([
      [`${c.source}.air-temperature-hourly-netcdf`, 'air_temperature', 'temperature'],
      [`${c.source}.precipitation-rate-hourly-netcdf`, 'precipitation_rate', 'precipitationRate'],
    ] as const)(
      "%s: xarray reads ecCodes' values at every grid point and hour of a day, north to south in -180..180",
      async (product, variable, name) => {
        const expected = expectations(c, reference.get(c.source)!);
        const [d] = await get<DatasetRecord[]>('transfer', `/products/${product}/datasets?date=${iso(c.netcdfDay).slice(0, 10)}`);
        // Every hour of the day the run's store holds: instants from the run's start, mean rates from an hour after.
        const first = c.runMs + (name === 'precipitationRate' ? HOUR : 0);
        const last = c.runMs + c.steps.at(-1)! * HOUR;
        const day = Math.floor(c.netcdfDay / DAY) * DAY;
        const hours = range(day, day + 23 * HOUR, HOUR).filter((t) => t >= first && t <= last);
        expect(d!.validTimes).toEqual(hours.map(isoShort));
        const file = await download(d!, join(dataDir, `${product}.nc`));
        const script = [
          'import json, sys, xarray',
          'ds = xarray.open_dataset(sys.argv[1], engine="netcdf4")',
          'v = ds[sys.argv[2]]',
          'print(json.dumps({"time": [str(t)[:19] + "Z" for t in ds.time.values], "lat": ds.lat.values.tolist(),',
          '  "lon": ds.lon.values.tolist(), "units": v.attrs["units"], "dims": list(v.dims), "values": v.values.tolist()}))',
        ].join('\n');
        const out = JSON.parse(await run(python, ['-c', script, file, variable])) as {
          time: string[];
          lat: number[];
          lon: number[];
          units: string;
          dims: string[];
          values: number[][][];
        };
        expect(out.time).toEqual(d!.validTimes);
        expect(out.dims).toEqual(['time', 'lat', 'lon']);
        expect(out.lat).toEqual(Array.from({ length: c.grid.nj }, (_, y) => c.grid.lat1 - y * c.grid.dlat));
        expect(out.lon).toEqual(Array.from({ length: c.grid.ni }, (_, x) => c.grid.lon1 - 360 + x * c.grid.dlon));
        expect(out.units).toBe(name === 'temperature' ? 'degC' : 'mm h-1');
        const wrong: unknown[] = [];
        out.time.forEach((t, k) => {
          const h = (Date.parse(t) - c.runMs) / HOUR;
          out.lat.forEach((lat, y) =>
            out.lon.forEach((lon, x) => {
              const value = expected[name]!(h, lat, lon)!;
              if (!closeStored(out.values[k]![y]![x]!, value))
                wrong.push({ hour: h, lat, lon, file: out.values[k]![y]![x], eccodes: value });
            }),
          );
        });
        expect(wrong.slice(0, 5)).toEqual([]);
      },
    );

    it.each([
      [`${c.source}.${c.box}-temperature`, 'temperature'],
      [`${c.source}.${c.box}-precipitation`, 'precipitationRate'],
    ] as const)("%s: gdallocationinfo finds ecCodes' values at grid points, by WGS 84 longitude and latitude", async (product, name) => {
      const expected = expectations(c, reference.get(c.source)!);
      const wrong: unknown[] = [];
      for (const t of c.geotiffHours) {
        const hours = await get<DatasetRecord[]>('transfer', `/products/${product}/datasets?date=${iso(t).slice(0, 10)}`);
        const h = (t - c.runMs) / HOUR;
        const d = hours.find((x) => x.validTime === isoShort(t));
        expect([h, d?.validTime]).toEqual([h, isoShort(t)]);
        const file = await download(d!, join(dataDir, `${product}-${h}.tif`));
        for (const [lat, lon] of c.gridPoints) {
          const out = await run('gdallocationinfo', ['-valonly', '-wgs84', file, String(lon), String(lat)]);
          const value = expected[name]!(h, lat, lon)!;
          if (!closeStored(Number(out.trim()), value)) wrong.push({ hour: h, lat, lon, file: out.trim(), eccodes: value });
        }
      }
      expect(wrong).toEqual([]);
    });
  });
});
