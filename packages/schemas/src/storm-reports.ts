// The message by which the archive area tells other areas the storm reports ingested for a type
// and convective day (docs/decisions/0492-ingested-storm-reports-announced-to-alerts.md).
import { z } from 'zod';
import { Timestamp, Uuid } from './common.js';

/**
 * Where the archive announces each ingestion. Not of the form `fieldcast.<area>.<resource>`: a
 * day's reports belong to no account and are no resource of the feeds (docs/architecture.md §5),
 * so the events service, which consumes that pattern, never sees these messages.
 */
export const STORM_REPORTS_TOPIC = 'fieldcast-state.archive.storm-reports';

/**
 * Reports per file, at most: a day's announcement carries all of them in one message, which must
 * fit a broker's default message (1 MB; about 140 bytes a report). The SPC's busiest days hold
 * about a thousand reports of a type.
 */
export const MAX_REPORTS_PER_DAY = 5000;

/**
 * The most hours a severe-weather rule looks back (docs/decisions/0272-alert-rule-kinds.md): the
 * alerts area refuses a longer window, and it is how far back the archive announces the days it
 * never announced and how long the alerts area keeps a day's reports
 * (docs/decisions/0501-storm-report-days-announced-once-and-pruned.md). Here, not in either
 * area, because both act on it and neither may import the other (docs/architecture.md §1).
 */
export const SEVERE_WEATHER_MAX_HOURS = 72;

/** One ingested report as announced: the archive's record's members the alerts area counts by. */
export const AnnouncedStormReport = z.object({
  id: Uuid,
  time: Timestamp,
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  /** in the archive's record's units (mm, m s-1, EF); null where the file said UNK */
  magnitude: z.number().nullable(),
});
export type AnnouncedStormReport = z.infer<typeof AnnouncedStormReport>;

/**
 * The reports of one type and convective day after an ingestion (`data.resource` of the
 * CloudEvent `fieldcast.storm-report-day.replaced`, keyed by the day's id): every report kept, so
 * a report left out of a revised file is gone. `revision` counts the day's ingestions in the
 * archive; a reader keeps the highest it has seen, so a message delivered again or late changes
 * nothing.
 */
export const StormReportDay = z.object({
  reportType: z.enum(['hail', 'wind', 'tornado']),
  /** the convective day, 12Z to 12Z, YYYY-MM-DD */
  day: z.iso.date(),
  revision: z.number().int().min(1),
  reports: z.array(AnnouncedStormReport).max(MAX_REPORTS_PER_DAY),
});
export type StormReportDay = z.infer<typeof StormReportDay>;
