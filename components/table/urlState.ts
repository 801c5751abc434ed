/** Builds a link to the same page with some search params changed; undefined or "" removes a param. */
export function withParams(pathname: string, current: Record<string, string | number | undefined>, changes: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...current, ...changes })) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}
