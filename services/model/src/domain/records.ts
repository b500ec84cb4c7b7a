/**
 * The records of the model area as callers see them (docs/interface.md §7; the public record's
 * client names their fields, docs/decisions/0140-forecast-runs-and-their-life-cycle.md).
 */
import type { ModelForecastRecord, ModelForecastVariableRecord, ModelRecord, ModelVariableRecord } from '@fieldcast/schemas';
import { forecastVariableId, type ModelDef, type ModelVariable } from '@fieldcast/weather';
import { producedValidTimes, runStatus, type Run } from './runs.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function modelRecord(m: ModelDef): ModelRecord {
  return { id: m.id, name: m.name, description: m.description, forecasts: `/models/${m.id}/forecasts` };
}

export function modelVariableRecord(v: ModelVariable): ModelVariableRecord {
  return { name: v.name, description: v.description, unit: { description: v.unit.description, label: v.unit.label } };
}

type Fixed = Omit<ModelForecastRecord, 'status'>;
/** The fields of a run's record that never change, per run object (runs live an hour in the run index). */
const fixedParts = new WeakMap<Run, Fixed>();

/** A run's record at nowMs; the run must exist then. */
export function forecastRecord(r: Run, nowMs: number): ModelForecastRecord {
  const status = runStatus(r, nowMs);
  if (status === null) throw new Error(`forecast ${r.id} does not exist at ${iso(nowMs)}`);
  let fixed = fixedParts.get(r);
  if (!fixed) {
    fixed = {
      id: r.id,
      initTime: iso(r.initMs),
      creationTime: iso(r.creationMs),
      expirationTime: iso(r.expirationMs),
      model: `/models/${r.modelId}`,
      variables: `/forecasts/${r.id}/variables`,
    };
    fixedParts.set(r, fixed);
  }
  const { id, initTime, creationTime, expirationTime, model, variables } = fixed;
  return { id, initTime, creationTime, expirationTime, status, model, variables };
}

/** One variable of a run at nowMs, with the valid times produced by then. */
export function forecastVariableRecord(r: Run, v: ModelVariable, nowMs: number): ModelForecastVariableRecord {
  return {
    id: forecastVariableId(r.id, v.name),
    name: v.name,
    description: v.description,
    unit: { description: v.unit.description, label: v.unit.label },
    validTimes: producedValidTimes(r, nowMs).map(iso),
    forecast: `/forecasts/${r.id}`,
  };
}
