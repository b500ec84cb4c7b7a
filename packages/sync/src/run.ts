/**
 * A run as `fieldcast sync <source> [--run YYYY-MM-DDTHHZ] [--steps A-B]` names it, and its steps
 * read and converted in order.
 */
import { SyncConfigError } from './errors.js';
import type { SourceHttp } from './http.js';
import { type SourceFacts, checkRun } from './sources.js';
import type { LatLonGrid } from '@fieldcast/grib2';
import { type ConvertedField, RunConverter, readStep } from './step.js';

const HOUR_MS = 3_600_000;

/** `2026-12-03T06Z` (the form `--run` takes) as epoch ms, checked against the source's run hours. */
export function parseRun(source: SourceFacts, text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})Z$/.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4])) : NaN;
  if (!m || new Date(ms).toISOString().slice(0, 13) !== `${m[1]}-${m[2]}-${m[3]}T${m[4]}`)
    throw new SyncConfigError(`run "${text}" is not YYYY-MM-DDTHHZ`);
  checkRun(source, ms);
  return ms;
}

/** The run's steps from A to B hours inclusive (`--steps A-B`), or all of them; a range holding none of its steps is refused. */
export function runSteps(source: SourceFacts, runMs: number, range?: string): readonly number[] {
  checkRun(source, runMs);
  const all = source.steps(new Date(runMs).getUTCHours());
  if (range === undefined) return all;
  const m = /^(\d+)-(\d+)$/.exec(range);
  if (!m || Number(m[1]) > Number(m[2])) throw new SyncConfigError(`steps "${range}" is not A-B, hours with A <= B`);
  const steps = all.filter((s) => s >= Number(m[1]) && s <= Number(m[2]));
  if (steps.length === 0) throw new SyncConfigError(`${source.name} writes no step from ${m[1]} to ${m[2]} h`);
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
