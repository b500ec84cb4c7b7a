/// <reference lib="dom" />
import type { Api } from './api.js';
import type { ArchiveMarkers } from './archive.js';
import { type CsvDownload, csvDownload, drawCharts, type PointChart, weatherCharts } from './charts.js';
import type { DegreeDaysPanel, PointChill, PointDegreeDays } from './degree-days.js';
import { byId } from './fields.js';
import { LatestRequest } from './latest.js';
import { type Place, placeText } from './place.js';
import { scaleSymbol } from './scale.js';
import { errorText, showPanelErrors } from './status.js';

/**
 * The point panel: the place clicked last, its degree days in the degree-day panel's settings
 * and its chill in the model chosen, each with its accumulation curve, its weather charts and
 * the severe weather near it (docs/areas.md, Console). Only the latest click and the latest
 * settings are shown: a new one aborts the requests before it and drops their answers.
 */
export class PointPanel {
  private place: Place | null = null;
  private readonly click = new LatestRequest();
  private readonly settings = new LatestRequest();

  constructor(
    private readonly api: Api,
    private readonly degreeDays: DegreeDaysPanel,
    private readonly archive: ArchiveMarkers,
  ) {
    degreeDays.onChange(() => void this.refresh());
    byId('chill-model').addEventListener('change', () => void this.refresh());
  }

  /** Everything about a place, in place of the last place's. */
  async show(place: Place): Promise<void> {
    this.place = place;
    const signal = this.click.start();
    await Promise.all([
      this.refresh(true),
      drawCharts(byId('weather-charts'), weatherCharts(this.api, place, signal)),
      this.archive.near(place, signal),
    ]);
  }

  /**
   * The place's degree days and chill, asked again in the settings now; nothing before a click.
   * `reveal`: bring the panel into view with the first answer, as after a click.
   */
  async refresh(reveal = false): Promise<void> {
    const place = this.place;
    if (!place) return;
    const signal = this.settings.start();
    const out = byId('point');
    const chillOut = byId('point-chill');
    out.textContent = `${placeText(place)}: …`;
    chillOut.textContent = '';
    const gddPath = this.degreeDays.pointPath(place);
    const chillPath = this.degreeDays.chillPointPath(place);
    const gdd = this.api.json<PointDegreeDays>('agriculture', gddPath, { signal });
    const chill = this.api.json<PointChill>('agriculture', chillPath, { signal });
    const csv = (path: string, what: string, answer: { startDate: string; endDate: string }) =>
      csvDownload(this.api, 'agriculture', path, what, place, [answer.startDate, answer.endDate]);
    const write = (into: HTMLElement, prefix: string) => (text: string) => {
      if (signal.aborted) return;
      into.textContent = `${prefix}${text}`;
      // On a narrow screen the panels stack under the map (console.css), and a clicked place's
      // answer would come far below it with nothing showing that it came. Not on a change of
      // settings: the person is at the settings, and the answer is not to pull them away.
      if (reveal) byId('point-panel').scrollIntoView({ block: 'nearest' });
      reveal = false;
    };
    await Promise.all([
      gdd.then(describePoint, errorText).then(write(out, `${placeText(place)}: `)),
      chill.then(describeChill, errorText).then(write(chillOut, 'Chill: ')),
      drawCharts(byId('accumulation-charts'), [
        accumulationChart(
          'Degree days accumulated',
          gdd,
          (g) => `${g.scale} degree days`,
          (g) => csv(gddPath, `degree days base ${g.baseTemperature} ${g.scale}`, g),
        ),
        accumulationChart(
          'Chill accumulated',
          chill,
          (c) => c.units,
          (c) => csv(chillPath, `chill ${c.model}`, c),
        ),
      ]),
    ]);
    const answers = await Promise.allSettled([gdd, chill]);
    const failures = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    if (!signal.aborted) showPanelErrors('point', failures);
  }
}

/** The point panel's line for a place's degree days. */
function describePoint(gdd: PointDegreeDays): string {
  return `${gdd.degreeDays} degree days (base ${gdd.baseTemperature} ${scaleSymbol(gdd.scale)}, ${gdd.startDate} to ${gdd.endDate})`;
}

/** The point panel's line for a place's chill: from the season's start, the area's default, to the degree-day panel's end. */
function describeChill(chill: PointChill): string {
  return `${chill.chill} ${chill.units} from the season's start ${chill.startDate} to ${chill.endDate}`;
}

/** An answer with each day's total so far (docs/interface.md §3, include=daily). */
interface Accumulated {
  daily: { date: string; accumulated: number }[];
}

/** The accumulation curve of a place's degree days or chill, and its days as a CSV file. */
function accumulationChart<T extends Accumulated>(
  title: string,
  answer: Promise<T>,
  unit: (answer: T) => string,
  csv: (answer: T) => CsvDownload,
): PointChart {
  return [
    title,
    async () => {
      const body = await answer;
      return {
        times: body.daily.map((d) => Date.parse(d.date) / 1000),
        values: body.daily.map((d) => d.accumulated),
        unit: unit(body),
        days: true,
        csv: csv(body),
      };
    },
  ];
}
