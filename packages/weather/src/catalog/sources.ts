/**
 * Names of the data sources and of the products that supply values (spec 2.7 `products`
 * arrays). A value valid up to the current hour comes from a source's analysis product, a later
 * one from its forecast product.
 */

/** Id and label of the embedded procedural world (docs/architecture.md §6: labelled "synthetic"). */
export const SYNTHETIC_SOURCE_ID = 'synthetic';

export const SYNTHETIC_ANALYSIS_PRODUCT = 'synthetic-analysis';
export const SYNTHETIC_FORECAST_PRODUCT = 'synthetic-forecast';

/** How far past the current hour the synthetic forecast reaches: 16 days, the horizon of its default products and model. */
export const SYNTHETIC_HORIZON_HOURS = 16 * 24;
