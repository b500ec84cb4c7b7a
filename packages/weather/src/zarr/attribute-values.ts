/**
 * Attribute values as stores write them: xarray and netCDF tools write a number as a number, a
 * bigint, a numeric string or a one-element array (CF 2.5.1 `_FillValue`, `valid_range`), and a
 * missing string attribute reads as the empty string.
 */
export type Attrs = Record<string, unknown>;

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  if (Array.isArray(v) && v.length > 0) return num(v[0]);
  return undefined;
}
