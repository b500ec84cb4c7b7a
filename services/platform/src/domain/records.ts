/** The platform's records (spec 2.4; public record: frames and platform forecasts). */
import { isoInstant, type ProductDef, type ProductRun } from '@fieldcast/weather';

/** Platform forecast record (public record): a run of a product, its frames and its product linked. */
export interface ForecastRecord {
  id: string;
  initTime: string;
  creationTime: string;
  expirationTime: string;
  frames: string;
  product: string;
}

export function forecastRecord(p: ProductDef, run: ProductRun): ForecastRecord {
  return {
    id: run.id,
    initTime: isoInstant(run.initMs),
    creationTime: isoInstant(run.creationMs),
    expirationTime: isoInstant(run.expirationMs),
    frames: `/forecasts/${run.id}/frames`,
    product: `/products/${p.id}`,
  };
}
