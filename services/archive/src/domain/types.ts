import type { SevereKind } from '@fieldcast/weather';

/**
 * The release of the archive's interface, `2.minor.micro`: the major is the `/v2` of every path
 * (docs/interface.md §11), the minor grows with additions, the micro with fixes.
 */
export const ARCHIVE_API_VERSION = '2.0.0';
/** The major version served, as it appears in paths. */
export const SERVED_MAJOR = 'v2';

/** The record types of the public record (docs/interface.md §11). */
export const ARCHIVE_TYPES = ['hailsize', 'hailprob', 'tornado', 'gustdur', 'lightning', 'stormreports'] as const;
export type ArchiveType = (typeof ARCHIVE_TYPES)[number];

export const ARCHIVE_REQUESTS = ['summary', 'latest', 'history'] as const;
export type ArchiveRequest = (typeof ARCHIVE_REQUESTS)[number];

/** Which of the synthetic world's severe-weather kinds each type reads (docs/decisions/0024-severe-weather.md). */
export const KIND_OF_TYPE: Record<ArchiveType, SevereKind> = {
  hailsize: 'hail',
  hailprob: 'hail',
  tornado: 'tornado',
  gustdur: 'gust',
  lightning: 'lightning',
  stormreports: 'storm_report',
};

export function isArchiveType(value: string): value is ArchiveType {
  return (ARCHIVE_TYPES as readonly string[]).includes(value);
}

export function isArchiveRequest(value: string): value is ArchiveRequest {
  return (ARCHIVE_REQUESTS as readonly string[]).includes(value);
}
