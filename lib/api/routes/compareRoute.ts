import type { z } from "zod";
import { describeRowPairing } from "@/lib/compare/describeRowPairing";
import { getDb } from "@/lib/db/client";
import { listFlips } from "@/lib/db/judgments/compareQueries";
import { countFlakyRows } from "@/lib/db/runs/flakyRows";
import { comparisonStatistics, exportedComparison, toFlippedRow } from "@/lib/export/comparisonStatistics";
import { compareHref, compareRowHref } from "@/lib/urlState/compareQuery";
import { ApiError } from "../apiErrors";
import { comparisonQuerySchema, comparisonSchema, type flippedRowSchema } from "../compareSchemas";
import { defineApiRoute } from "../defineApiRoute";
import { pairwiseDetail } from "../pairwiseDetail";

/**
 * Compares runs against a baseline as the compare page does: per metric both values, the delta on the rows
 * both runs judged with its (1 − alpha) interval (95% by default), the paired test (exact McNemar for yes/no, the paired bootstrap or,
 * above 50,000 pairs, the normal interval for scores) and its verdict in words; then the flipped rows.
 * Runs on two datasets pair their rows by request (rowPairings says how many). Waits for every interval, as
 * an export does.
 */
export const compareRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/compare",
    operationId: "compareRuns",
    summary: "Compare runs against a baseline: values, paired deltas, tests, verdicts and flipped rows",
    tag: "Compare",
    action: "data.read",
    query: comparisonQuerySchema,
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
    const comparison = await exportedComparison(db, query.runs, baselineId, {
      alpha: query.alpha,
      correction: query.correction,
    });
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
    const flakyRows = new Map(
      await Promise.all(
        comparison.runs.map(async (run) => [run.id, run.trials > 1 ? await countFlakyRows(db, run) : 0] as const),
      ),
    );
    return {
      baselineId: comparison.baselineId,
      runs: comparison.runs.map((run) => ({
        id: run.id,
        name: run.name,
        datasetId: run.datasetId,
        datasetName: run.datasetName,
        status: run.status,
        judge: { provider: run.judgeProvider, model: run.judgeModel },
        metrics: run.metrics,
        trials: run.trials,
        flakyRows: flakyRows.get(run.id) ?? 0,
      })),
      alpha: query.alpha,
      correction: query.correction,
      sameDataset: comparison.sameDataset,
      rowPairings: Object.fromEntries(
        Object.entries(comparison.rowPairings ?? {}).map(([id, counts]) => [
          id,
          {
            paired: counts.paired,
            only_baseline: counts.onlyBaseline,
            only_candidate: counts.onlyCandidate,
            same_id_different_request: counts.sameIdDifferentRequest,
            words: describeRowPairing(counts),
          },
        ]),
      ),
      statistics: comparisonStatistics(comparison),
      flips,
      flipTotals: Object.fromEntries(
        Object.entries(comparison.paired ?? {}).map(([id, counts]) => [
          id,
          {
            regressions: counts.reduce((sum, c) => sum + c.yesNo + c.passFail, 0),
            improvements: counts.reduce((sum, c) => sum + c.noYes + c.failPass, 0),
          },
        ]),
      ),
      pairwise: Object.values(comparison.pairwise ?? {}).map(pairwiseDetail),
      url: compareHref(query.runs, { baseline: comparison.baselineId }),
    };
  },
);
