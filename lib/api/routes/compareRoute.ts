import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { listFlips } from "@/lib/db/judgments/compareQueries";
import { comparisonStatistics, exportedComparison, toFlippedRow } from "@/lib/export/comparisonStatistics";
import { compareHref, compareRowHref } from "@/lib/urlState/compareQuery";
import { ApiError } from "../apiErrors";
import { defineApiRoute } from "../defineApiRoute";

const nullableNumber = z.number().nullable();

export const metricStatisticsSchema = z
  .object({
    metric: z.string(),
    baseline_run_id: z.string(),
    candidate_run_id: z.string(),
    unit: z.enum(["rate", "score", "seconds", "tokens"]),
    baseline_value: nullableNumber,
    candidate_value: nullableNumber,
    delta: nullableNumber.meta({ description: "Candidate minus baseline, on delta_basis" }),
    delta_basis: z.enum(["paired_rows", "overall"]),
    overall_delta: nullableNumber,
    interval_low: nullableNumber,
    interval_high: nullableNumber,
    p_value: nullableNumber.meta({ description: "Exact McNemar's p for yes/no metrics" }),
    test: z.enum(["exact_mcnemar", "paired_bootstrap", "paired_normal"]).nullable(),
    verdict: z.enum(["better", "worse", "noise", "n/a"]),
    words: z.string().meta({ example: "Real regression: −12.0 points (95% CI −18.1 to −5.9; p = 0.0004)" }),
    paired_rows: z.number().int(),
    unpaired_rows: z.number().int(),
    regressions: z.number().int().nullable(),
    improvements: z.number().int().nullable(),
    judged_differently: z.string().nullable(),
  })
  .meta({ id: "MetricStatistics" });

export const flippedRowSchema = z
  .object({
    candidate_run_id: z.string(),
    request_id: z.string(),
    row_number: z.number().int(),
    metric: z.string(),
    kind: z.enum(["verdict", "success"]),
    direction: z.enum(["regression", "improvement"]),
    baseline: z.string(),
    candidate: z.string(),
    baseline_score: nullableNumber,
    candidate_score: nullableNumber,
    url: z.string().meta({ description: "Both runs' verdicts on this row, side by side, on this server" }),
  })
  .meta({ id: "FlippedRow" });

export const comparisonSchema = z
  .object({
    baselineId: z.string(),
    runs: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        datasetId: z.string(),
        datasetName: z.string(),
        status: z.string(),
        judge: z.object({ provider: z.string(), model: z.string() }),
      }),
    ),
    sameDataset: z.boolean(),
    statistics: z.array(metricStatisticsSchema).meta({ description: "One record per (metric, candidate run)" }),
    flips: z.array(flippedRowSchema).meta({ description: "The first `flips` flipped rows, regressions first" }),
    url: z.string().meta({ description: "The comparison's page on this server" }),
  })
  .meta({ id: "Comparison" });

/**
 * Compares runs against a baseline as the compare page does: per metric both values, the delta on the rows
 * both runs judged with its 95% interval, the paired test (exact McNemar for yes/no, the paired bootstrap or,
 * above 50,000 pairs, the normal interval for scores) and its verdict in words; then the flipped rows.
 * Waits for every interval, as an export does.
 */
export const compareRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/compare",
    operationId: "compareRuns",
    summary: "Compare runs against a baseline: values, paired deltas, tests, verdicts and flipped rows",
    tag: "Compare",
    action: "data.read",
    query: z.object({
      runs: z
        .string()
        .min(1)
        .max(2000)
        .meta({ description: "Run ids, comma-separated (2 to 8)" })
        .transform((text) => [
          ...new Set(
            text
              .split(",")
              .map((id) => id.trim())
              .filter(Boolean),
          ),
        ])
        .pipe(z.array(z.string().max(200)).min(2, "Give at least two runs.").max(8, "Compare at most eight runs.")),
      baseline: z.string().max(200).optional().meta({ description: "One of `runs`; the first by default" }),
      flips: z.coerce.number().int().min(0).max(500).default(20).meta({ description: "How many flipped rows to list" }),
    }),
    response: comparisonSchema,
    errors: [404],
  },
  async ({ query }) => {
    const baselineId = query.baseline ?? query.runs[0];
    if (!query.runs.includes(baselineId))
      throw new ApiError(400, "invalid_request", "The baseline must be one of the runs compared.", [
        { field: "baseline", message: "not one of runs" },
      ]);
    const db = getDb();
    const comparison = await exportedComparison(db, query.runs, baselineId);
    if (!comparison) throw new ApiError(404, "not_found", "One of the runs does not exist.");
    // Each candidate's flips in the flip list's order (regressions first), until `flips` are listed.
    const flips: z.input<typeof flippedRowSchema>[] = [];
    for (const [candidateId, paired] of Object.entries(comparison.paired ?? {})) {
      const remaining = query.flips - flips.length;
      if (remaining <= 0) break;
      const page = await listFlips(db, comparison.baselineId, candidateId, { offset: 0, limit: remaining, paired });
      for (const flip of page.items)
        flips.push({
          ...toFlippedRow(candidateId, flip),
          url: compareRowHref({
            baseline: comparison.baselineId,
            candidate: candidateId,
            row: flip.rowId,
            metric: flip.metric,
          }),
        });
    }
    return {
      baselineId: comparison.baselineId,
      runs: comparison.runs.map((run) => ({
        id: run.id,
        name: run.name,
        datasetId: run.datasetId,
        datasetName: run.datasetName,
        status: run.status,
        judge: { provider: run.judgeProvider, model: run.judgeModel },
      })),
      sameDataset: comparison.sameDataset,
      statistics: comparisonStatistics(comparison),
      flips,
      url: compareHref(query.runs, { baseline: comparison.baselineId }),
    };
  },
);
