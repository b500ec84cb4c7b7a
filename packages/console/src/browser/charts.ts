/// <reference lib="dom" />
import uPlot from 'uplot';
import type { Api } from './api.js';
import { valueAxisSize } from './axis-size.js';
import { downloadName } from './download-name.js';
import { type Place, placePath } from './place.js';
import { saveFile } from './save-file.js';
import { button } from './fields.js';
import { errorText, showError } from './status.js';

interface HourlySeries {
  startTime: string;
  endTime: string;
  unit: { description: string; label: string };
  series: { validTime: string; value: number | null }[];
}

interface LatestForecast {
  forecast: string;
  variables: Record<string, { series: { validTime: string; value: number | null }[]; unit: { label: string } }>;
}

/** The model whose latest run the forecast chart shows (docs/interface.md §7). */
const MODEL = 'synthetic-global';

/**
 * A series as a CSV file: every series the point panel charts is answered in CSV too, with
 * `Accept: text/csv` (docs/interface.md §3, §5, §7).
 */
export interface CsvDownload {
  /** the file's name (downloadName) */
  name: string;
  /** the same request as the chart's, answered in CSV */
  load: () => Promise<Blob>;
}

/** The series at `path` of `area` as a CSV file named for `what` it is, the place and `period` (downloadName). */
export function csvDownload(api: Api, area: string, path: string, what: string, place: Place, period: string[]): CsvDownload {
  return { name: downloadName(what, place, period, 'csv'), load: () => api.blob(area, path, undefined, 'text/csv') };
}

/**
 * A chart's title and how to load its series: times in seconds since 1970, whether each is a day
 * (a daily value, at its date's 00:00 UTC) rather than an hour, and the series as a file.
 */
export type PointChart = [
  string,
  () => Promise<{ times: number[]; values: (number | null)[]; unit: string; days?: boolean; csv?: CsvDownload }>,
];

/**
 * The charts' times in UTC, as the frames and the feed show them: the areas count days in UTC
 * (docs/interface.md §3), and a day drawn in the browser's zone west of Greenwich would fall on
 * the evening before.
 */
const inUtc = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

/**
 * A place's weather charts: hourly relative humidity and reference evapotranspiration (insight,
 * docs/interface.md §5) and the latest forecast of a model (§7). `signal` aborts their requests
 * when another place is clicked.
 */
export function weatherCharts(api: Api, place: Place, signal: AbortSignal): PointChart[] {
  const point = placePath(place);
  const csv = (area: string, path: string, what: string, period: string[]) => csvDownload(api, area, path, what, place, period);
  const hourlySeries = async (what: string, path: string) => {
    const body = await api.json<HourlySeries>('insight', path, { signal });
    return { ...hourly(body), csv: csv('insight', path, what, [body.startTime, body.endTime]) };
  };
  return [
    ['Relative humidity, next 24 h', () => hourlySeries('relative humidity', `/hourly-relative-humidity/${point}`)],
    [
      'Evapotranspiration (short crop), next 24 h',
      () => hourlySeries('evapotranspiration short crop', `/hourly-evapotranspiration-short-crop/${point}`),
    ],
    [
      `Latest ${MODEL} forecast, temperature`,
      async () => {
        const path = `/models/${MODEL}/latest-forecast/timeseries/${point}?limit=72`;
        const latest = await api.json<LatestForecast>('model', path, { signal });
        const [name, variable] =
          Object.entries(latest.variables).find(([n]) => /temperature/.test(n)) ?? Object.entries(latest.variables)[0] ?? [];
        if (!variable) throw new Error('The forecast has no variables');
        const times = variable.series.map((s) => s.validTime);
        return {
          times: times.map((t) => Date.parse(t) / 1000),
          values: variable.series.map((s) => s.value),
          unit: `${name} ${variable.unit.label}`,
          csv: csv(
            'model',
            path,
            `${MODEL} forecast`,
            [times[0] ?? '', times.at(-1) ?? ''].filter((t) => t !== ''),
          ),
        };
      },
    ],
  ];
}

/**
 * Draws the charts in `box`, in place of what it held. Each chart that fails says why in its
 * place; the others still draw. A chart whose box was redrawn since (another place or other
 * settings) is dropped, loaded or not.
 */
export async function drawCharts(box: HTMLElement, charts: PointChart[]): Promise<void> {
  box.replaceChildren();
  await Promise.all(
    charts.map(async ([title, load]) => {
      const figure = document.createElement('figure');
      const caption = document.createElement('figcaption');
      caption.textContent = title;
      figure.append(caption);
      box.append(figure);
      try {
        const { times, values, unit, days, csv } = await load();
        if (!figure.isConnected) return;
        // Named by its words and then the chart's title (WCAG 2.2, 2.5.3 Label in Name).
        if (csv)
          caption.append(
            ' ',
            button('Download CSV', () => void download(csv), `Download CSV of ${title}`),
          );
        const width = Math.min(320, figure.clientWidth || 320);
        new uPlot(
          {
            width,
            height: 140,
            tzDate: inUtc,
            series: [
              { label: 'UTC', value: days ? '{YYYY}-{MM}-{DD}' : '{YYYY}-{MM}-{DD} {HH}:{mm}' },
              { label: unit, stroke: '#20364d', width: 1.5 },
            ],
            axes: [{}, { size: fitLabels }],
            legend: { show: true },
          },
          [times, values],
          figure,
        );
        figure.dataset.state = 'loaded';
      } catch (err) {
        if (!figure.isConnected) return;
        const p = document.createElement('p');
        p.className = 'message';
        p.textContent = errorText(err);
        figure.append(p);
        figure.dataset.state = 'error';
      }
    }),
  );
}

/** Saves the series as its CSV file; a refusal shows as a message. */
async function download(csv: CsvDownload): Promise<void> {
  try {
    saveFile(await csv.load(), csv.name);
  } catch (err) {
    showError(err);
  }
}

/**
 * The value axis as wide as its tick labels in the axis's font (uPlot's axis-autosize pattern).
 * uPlot asks again while the sizes settle: after two rounds the last size stands, so the layout
 * cannot swing between two widths.
 */
const fitLabels: uPlot.Axis.Size = (self, values, axisIdx, cycleNum) => {
  // uPlot keeps the size it gave last and the font it scaled to the device's pixels on the axis
  const axis = self.axes[axisIdx] as unknown as { _size?: number; font?: [string, ...unknown[]] };
  if (cycleNum > 1 && axis._size !== undefined) return axis._size;
  return valueAxisSize(values, (text) => {
    self.ctx.font = axis.font?.[0] ?? self.ctx.font;
    // the canvas measures in device pixels, the axis is sized in CSS pixels
    return self.ctx.measureText(text).width / devicePixelRatio;
  });
};

function hourly(body: HourlySeries) {
  return {
    times: body.series.map((s) => Date.parse(s.validTime) / 1000),
    values: body.series.map((s) => s.value),
    unit: body.unit.label,
  };
}
