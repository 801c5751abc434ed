import { z } from "zod";
import { CORRECTIONS, DEFAULT_CORRECTION, type Correction } from "@/lib/stats/multipleComparisons";
import { allValues, firstValue, firstValues, type SearchParams } from "./searchParams";
import { withParams } from "./withParams";

/**
 * The compare page's URL state: runs (repeated or comma-separated), baseline, how the metrics are read together
 * (correction: holm by default, bh or none), and the flip list's filters and page.
 */
export const compareQuerySchema = z.object({
  runs: z.array(z.string().min(1).max(100)).max(8).catch([]),
  baseline: z.string().max(100).optional().catch(undefined),
  candidate: z.string().max(100).optional().catch(undefined),
  metric: z.string().max(300).optional().catch(undefined),
  direction: z.enum(["regressions", "improvements"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  correction: z.enum(CORRECTIONS).catch(DEFAULT_CORRECTION),
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export function parseCompareQuery(searchParams: SearchParams): CompareQuery {
  const runs = allValues(searchParams.runs)
    .flatMap((value) => value.split(","))
    .map((id) => id.trim())
    .filter(Boolean);
  const one = (key: string) => firstValue(searchParams[key]) || undefined;
  return compareQuerySchema.parse({
    runs: [...new Set(runs)],
    baseline: one("baseline"),
    candidate: one("candidate"),
    metric: one("metric"),
    direction: one("direction"),
    page: firstValue(searchParams.page),
    correction: one("correction"),
  });
}

/**
 * The query without runs that no longer exist (a link kept after a run was
 * deleted): the remaining runs, and no baseline or candidate that pointed at a missing one.
 */
export function withoutRuns(query: CompareQuery, missing: readonly string[]): CompareQuery {
  if (missing.length === 0) return query;
  const gone = (id: string | undefined) => id !== undefined && missing.includes(id);
  return {
    ...query,
    runs: query.runs.filter((id) => !gone(id)),
    baseline: gone(query.baseline) ? undefined : query.baseline,
    candidate: gone(query.candidate) ? undefined : query.candidate,
  };
}

/** The compare page after the baseline and candidate are settled: what its flip list's links and forms carry. */
export function compareParams(query: CompareQuery, baselineId: string, candidateId: string | undefined) {
  return {
    runs: query.runs.join(","),
    baseline: baselineId,
    candidate: candidateId,
    metric: query.metric,
    direction: query.direction,
    page: query.page,
    // The default is left out of links, so a plain link and one that names it read the same.
    correction: query.correction === DEFAULT_CORRECTION ? undefined : query.correction,
  };
}

/** A link to compare runs (`runs=a,b`, commas kept readable), optionally with a baseline and a candidate. */
export function compareHref(
  runIds: string[],
  options: { baseline?: string; candidate?: string; hash?: string } = {},
): string {
  const runs = runIds.map(encodeURIComponent).join(",");
  const baseline = options.baseline ? `&baseline=${encodeURIComponent(options.baseline)}` : "";
  const candidate = options.candidate ? `&candidate=${encodeURIComponent(options.candidate)}` : "";
  return `/compare?runs=${runs}${baseline}${candidate}${options.hash ? `#${options.hash}` : ""}`;
}

/** How many flipped rows the compare page lists per page (the row page's way back lands on the flip's page). */
export const FLIPS_PER_PAGE = 50;

/**
 * One row judged by two runs, side by side: baseline, candidate and row are required, or the page is not found.
 * `metric` is the flip this page was opened for; `runs`, `listMetric` and `direction` are the flip list it came
 * from (its runs and filters), which j / k / n step through and the way back returns to.
 */
export const compareRowQuerySchema = z.object({
  baseline: z.string().min(1),
  candidate: z.string().min(1),
  row: z.string().min(1),
  metric: z.string().optional(),
  runs: z.string().max(1000).optional().catch(undefined),
  listMetric: z.string().max(300).optional().catch(undefined),
  direction: z.enum(["regressions", "improvements"]).optional().catch(undefined),
});
export type CompareRowQuery = z.infer<typeof compareRowQuerySchema>;

/** The compare row page's query, or null when a required parameter is missing. */
export function parseCompareRowQuery(searchParams: SearchParams): CompareRowQuery | null {
  const parsed = compareRowQuerySchema.safeParse(firstValues(searchParams));
  return parsed.success ? parsed.data : null;
}

export function compareRowHref(query: CompareRowQuery): string {
  return withParams(
    "/compare/row",
    {},
    {
      baseline: query.baseline,
      candidate: query.candidate,
      row: query.row,
      metric: query.metric,
      runs: query.runs,
      listMetric: query.listMetric,
      direction: query.direction,
    },
  );
}

/** Back from a flipped row to the compare page it came from: same runs and filters, the page holding that flip. */
export function compareListHref(query: CompareRowQuery, position: number | null): string {
  const page = position === null ? undefined : Math.ceil(position / FLIPS_PER_PAGE);
  return (
    withParams(
      "/compare",
      {},
      {
        runs: query.runs ?? `${query.baseline},${query.candidate}`,
        baseline: query.baseline,
        candidate: query.candidate,
        metric: query.listMetric,
        direction: query.direction,
        page: page && page > 1 ? page : undefined,
      },
    ) + "#flips"
  );
}

/** The compare export: with a baseline its statistics are against that run; `part` picks a CSV's table. */
export function compareExportHref(
  runIds: string[],
  format: "json" | "csv",
  options: { baseline?: string; part?: "statistics" | "flips" | "pairwise"; correction?: Correction } = {},
): string {
  const baseline = options.baseline ? `&baseline=${encodeURIComponent(options.baseline)}` : "";
  const part = options.part ? `&part=${options.part}` : "";
  const correction =
    options.correction && options.correction !== DEFAULT_CORRECTION ? `&correction=${options.correction}` : "";
  return `/compare/export?runs=${runIds.map(encodeURIComponent).join(",")}${baseline}&format=${format}${part}${correction}`;
}
