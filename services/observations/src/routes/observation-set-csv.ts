/**
 * An observation set as CSV (docs/decisions/0243-csv-answers.md), for a client that loads what a
 * station network sent into a spreadsheet or a data frame: one row per site, time and variable,
 * in the order sent. A set mixes variables of different units, so the unit is a column of each
 * row beside its variable rather than in one header; the tags are metadata and stay in the JSON.
 */
import { csvForm } from '@fieldcast/kit';
import type { ObservationSetInput } from '@fieldcast/schemas';

export const observationSetCsv = csvForm<ObservationSetInput>(
  'One row per site, time and variable, in the order sent: site, latitude, longitude, elevation (m), time (as sent), variable, unit, value, method and interval (s) of an aggregated value (empty otherwise)',
  (set) => ({
    columns: ['site', 'latitude', 'longitude', 'elevation (m)', 'time', 'variable', 'unit', 'value', 'method', 'interval (s)'],
    rows: (function* () {
      for (const site of set.sites)
        for (const observation of site.observations)
          for (const v of observation.variables)
            yield [site.id, site.latitude, site.longitude, site.elevation, observation.time, v.name, v.unit, v.value, v.method, v.interval];
    })(),
  }),
);
