/** A page's search parameters as Next.js hands them over: a key may repeat, so a value may be a list. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a parameter (a repeated key keeps its first occurrence). */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Every parameter reduced to its first value, for schemas that read one value per key. */
export function firstValues(searchParams: SearchParams): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(searchParams).map(([key, value]) => [key, firstValue(value)]));
}

/** Every value of a parameter, as a list (none, one, or the repeated ones). */
export function allValues(value: string | string[] | undefined): string[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** A route handler's URL as the same shape a page receives, so both go through the same parsers. */
export function searchParamsOf(url: URL): SearchParams {
  return Object.fromEntries([...new Set(url.searchParams.keys())].map((key) => [key, url.searchParams.getAll(key)]));
}
