/** Parameter values a link carries; undefined or "" leaves the parameter out. */
export type ParamValues = Record<string, string | number | undefined>;

/**
 * A link to `pathname` with the current parameters and some of them changed:
 * used by pagers, filters, sort headers and row navigation alike.
 */
export function withParams(pathname: string, current: ParamValues, changes: ParamValues): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...current, ...changes })) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}
