import { firstValue, type SearchParams } from "./searchParams";

/** The run page's chunk heatmap starts at this row number (`?heatmap=`); 1, the first row, by default. */
export const HEATMAP_PARAM = "heatmap";

/** Where the heatmap's page starts: a positive whole row number from the URL, else 1 (never an error). */
export function parseHeatmapFrom(searchParams: SearchParams): number {
  const raw = firstValue(searchParams[HEATMAP_PARAM])?.trim() ?? "";
  if (!/^\d{1,9}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

/**
 * The run page's URL with the heatmap moved to `from`, every other parameter (the rows table's filter,
 * sort and page) kept, and the view brought back to the heatmap.
 */
export function heatmapHref(runId: string, searchParams: SearchParams, from: number): string {
  const params = new URLSearchParams(keptParams(searchParams));
  if (from > 1) params.set(HEATMAP_PARAM, String(from));
  const query = params.toString();
  return `/runs/${runId}${query ? `?${query}` : ""}#chunk-heatmap`;
}

/**
 * A GET form that moves the heatmap to a row the reviewer types: where it goes (back to the heatmap), and
 * the other parameters it keeps as hidden fields.
 */
export function heatmapJumpForm(runId: string, searchParams: SearchParams) {
  return { action: `/runs/${runId}#chunk-heatmap`, name: HEATMAP_PARAM, hidden: keptParams(searchParams) };
}

/** Every parameter but the heatmap's, as name–value pairs (a repeated name keeps each value). */
function keptParams(searchParams: SearchParams): [string, string][] {
  return Object.entries(searchParams).flatMap(([key, value]) =>
    key === HEATMAP_PARAM || value === undefined
      ? []
      : (Array.isArray(value) ? value : [value]).map((one): [string, string] => [key, one]),
  );
}
