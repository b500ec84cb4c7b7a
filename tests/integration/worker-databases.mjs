/** The database of Jest worker `id`: the suite's database name with `_w<id>` after it. */
export function workerDatabaseUrl(url, id) {
  const u = new URL(url);
  u.pathname = `${u.pathname}_w${id}`;
  return u.toString();
}
