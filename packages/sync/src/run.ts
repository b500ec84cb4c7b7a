/**
 * A run as `fieldcast sync <source> [--run YYYY-MM-DDTHHZ] [--steps A-B]` names it, and its steps
 * read and converted in order.
 */
import { calendarFault, calendarMs } from '@fieldcast/calendar';
import { SyncConfigError } from './errors.js';
import type { SourceHttp } from './http.js';
import { type SourceFacts, checkRun } from './sources.js';
import type { LatLonGrid } from '@fieldcast/grib2';
import { type ConvertedField, RunConverter, readStep } from './step.js';

const HOUR_MS = 3_600_000;

/**
 * `2026-12-03T06Z` (the form `--run` takes) as epoch ms, checked against the source's run hours.
 * Its fields are read on the one calendar rule (docs/decisions/0362-one-calendar-rule.md): a year
 * 0000 to 0099 is itself, and a field out of its range (month 13, 31 February, hour 24) is
 * refused by name rather than rolled over into another run.
 */
export function parseRun(source: SourceFacts, text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})Z$/.exec(text);
  if (!m) throw new SyncConfigError(`run "${text}" is not YYYY-MM-DDTHHZ`);
  const fields = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4]), minute: 0, second: 0 };
  const ms = calendarMs(fields.year, fields.month, fields.day, fields.hour);
  if (ms === null) {
    const field = calendarFault(fields.year, fields.month, fields.day, fields.hour)!;
    throw new SyncConfigError(`run "${text}" is not a calendar time: ${field} ${fields[field]} is out of range`);
  }
  checkRun(source, ms);
  return ms;
}

/** `A-B` (the form `--steps` takes) as hours from A to B inclusive, whatever the run; refused unless A <= B. */
export function parseStepRange(range: string): { from: number; to: number } {
  const m = /^(\d+)-(\d+)$/.exec(range);
  if (!m || Number(m[1]) > Number(m[2])) throw new SyncConfigError(`steps "${range}" is not A-B, hours with A <= B`);
  return { from: Number(m[1]), to: Number(m[2]) };
}

/** The run's steps from A to B hours inclusive (`--steps A-B`), or all of them; a range holding none of its steps is refused. */
export function runSteps(source: SourceFacts, runMs: number, range?: string): readonly number[] {
  checkRun(source, runMs);
  const all = source.steps(new Date(runMs).getUTCHours());
  if (range === undefined) return all;
  const { from, to } = parseStepRange(range);
  const steps = all.filter((s) => s >= from && s <= to);
  if (steps.length === 0) throw new SyncConfigError(`${source.name} writes no step from ${from} to ${to} h`);
  return steps;
}

/** The runs started at or before `nowMs`, newest first, `count` of them. */
export function runsBefore(source: SourceFacts, nowMs: number, count: number): number[] {
  const runs: number[] = [];
  for (let t = Math.floor(nowMs / HOUR_MS) * HOUR_MS; runs.length < count; t -= HOUR_MS)
    if (source.runHours.includes(new Date(t).getUTCHours())) runs.push(t);
  return runs;
}

export interface ConvertedStep {
  step: number;
  validMs: number;
  /** The grid every field of the step is on (rows north to south). */
  grid: LatLonGrid;
  fields: ConvertedField[];
}

/**
 * The given steps of a run, fetched, decoded and converted one after another. A step's rates are
 * means since the step before, so when the first step asked for is not the run's first, the one
 * before it is read first and not yielded. Holds one step's fields at a time; the first failure
 * ends the iteration with its error (UpstreamError, MessageRangeError, StepDataError).
 */
export async function* readRun(
  http: SourceHttp,
  source: SourceFacts,
  baseUrl: string,
  runMs: number,
  steps: readonly number[],
): AsyncGenerator<ConvertedStep> {
  const converter = new RunConverter();
  const all = source.steps(new Date(runMs).getUTCHours());
  const before = steps.length ? all[all.indexOf(steps[0]!) - 1] : undefined;
  if (before !== undefined) converter.convert(await readStep(http, source, baseUrl, runMs, before));
  for (const step of steps) {
    const decoded = await readStep(http, source, baseUrl, runMs, step);
    yield { step, validMs: runMs + step * HOUR_MS, grid: decoded.grid, fields: converter.convert(decoded) };
  }
}
