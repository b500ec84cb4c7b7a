/// <reference lib="dom" />
import uPlot from 'uplot';
import type { Api } from './api.js';
import { valueAxisSize } from './axis-size.js';
import { type Place, placePath } from './place.js';
import { errorText } from './status.js';

interface HourlySeries {
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
 * A chart's title and how to load its series: times in seconds since 1970, and whether each is a
 * day (a daily value, at its date's 00:00 UTC) rather than an hour.
 */
export type PointChart = [string, () => Promise<{ times: number[]; values: (number | null)[]; unit: string; days?: boolean }>];

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
  return [
    [
      'Relative humidity, next 24 h',
      async () => hourly(await api.json<HourlySeries>('insight', `/hourly-relative-humidity/${point}`, { signal })),
    ],
    [
      'Evapotranspiration (short crop), next 24 h',
      async () => hourly(await api.json<HourlySeries>('insight', `/hourly-evapotranspiration-short-crop/${point}`, { signal })),
    ],
    [
      `Latest ${MODEL} forecast, temperature`,
      async () => {
        const latest = await api.json<LatestForecast>('model', `/models/${MODEL}/latest-forecast/timeseries/${point}?limit=72`, {
          signal,
        });
        const [name, variable] =
          Object.entries(latest.variables).find(([n]) => /temperature/.test(n)) ?? Object.entries(latest.variables)[0] ?? [];
        if (!variable) throw new Error('The forecast has no variables');
        return {
          times: variable.series.map((s) => Date.parse(s.validTime) / 1000),
          values: variable.series.map((s) => s.value),
          unit: `${name} ${variable.unit.label}`,
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
        const { times, values, unit, days } = await load();
        if (!figure.isConnected) return;
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
