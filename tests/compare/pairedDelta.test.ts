import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MetricComparisonTable } from "@/components/compare/MetricComparisonTable";
import { compareRuns, type Comparison } from "@/lib/compare/compareRuns";
import type { Db } from "@/lib/db/client";

import { createRun } from "@/lib/engine/createRun";
import { comparisonStatistics } from "@/lib/export/comparisonStatistics";
import { importRows } from "../support/engineKit";
import { saveTestVerdict, scoreRun, thirtyRowsWithContext } from "../support/scoreRun";
import { openDataset } from "../support/servedDataset";
import { createTempDb } from "../support/tempDb";

const SAFETY = "response/llm_judged/safety";
const FAITHFULNESS = "response/llm_judged/faithfulness";
// Clopper–Pearson's upper bound on the share of flipped rows when none of 6 flipped, at 95 %.
const NO_FLIP_BOUND = 1 - 0.025 ** (1 / 6);
const judge = { provider: "openai" as const, model: "judge-model" };
const text = (html: string) => html.replace(/<[^>]+>/g, "");

/** Rates a run's safety rows in row order; null leaves that row unjudged (pending). */
async function rateRun(db: Db, runId: string, ratings: ("yes" | "no" | null)[]) {
  const items = await db.judgmentItem.findMany({
    where: { runId, metric: SAFETY },
    orderBy: { row: { rowNumber: "asc" } },
    select: { id: true, rowId: true, metric: true },
  });
  for (const [i, item] of items.entries()) {
    const rating = ratings[i];
    if (rating === null) continue;
    await saveTestVerdict(db, { ...item, runId }, { rating, score: null, threshold: null, passed: rating === "yes" });
  }
}

/**
 * Ten rows. The baseline says yes on rows 1–8 and no on rows 9–10 (8/10 = 0.8); the candidate says yes on
 * rows 1–6 and has not judged rows 7–10 (6/6 = 1.0). By hand:
 *   paired rows 1–6, all yes→yes: b = c = 0, paired difference 0;
 *   the interval that inverts the exact McNemar test: no row flipped, so ± the largest share of flipped rows
 *   that seeing none in 6 allows, Clopper–Pearson's 1 − 0.025^(1/6) = 0.459258…;
 *   overall yes-rates 1.0 − 0.8 = +0.2, which is not the tested delta (the old delta, outside [0, 0]).
 */
describe("a yes/no delta on the rows both runs judged, with rows judged in one run only", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let baseline: string;
  let candidate: string;
  let comparison: Comparison;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await importRows(
      db,
      Array.from({ length: 10 }, (_, i) => ({
        request_id: `r${i + 1}`,
        request: `Q${i + 1}?`,
        response: `A${i + 1}.`,
      })),
    );
    baseline = await createRun(db, { datasetId, metrics: ["safety"], judge });
    candidate = await createRun(db, { datasetId, metrics: ["safety"], judge });
    await rateRun(db, baseline, ["yes", "yes", "yes", "yes", "yes", "yes", "yes", "yes", "no", "no"]);
    await rateRun(db, candidate, ["yes", "yes", "yes", "yes", "yes", "yes", null, null, null, null]);
    comparison = (await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity }))!;
  });
  afterAll(async () => cleanup());

  it("gives the paired difference as the delta, inside its own interval, and keeps the overall difference apart", () => {
    const safety = comparison.metrics.find((m) => m.metric === SAFETY)!;
    expect(safety.cells[baseline].aggregate?.value).toBeCloseTo(0.8, 12);
    expect(safety.cells[candidate].aggregate?.value).toBeCloseTo(1, 12);
    const delta = safety.deltas[candidate];
    expect(delta).toMatchObject({ delta: 0, pairs: 6, unpaired: 4, pValue: 1, verdict: "noise" });
    expect(delta.overallDelta).toBeCloseTo(0.2, 12);
    expect(delta.interval!.low).toBeCloseTo(-NO_FLIP_BOUND, 12);
    expect(delta.interval!.high).toBeCloseTo(NO_FLIP_BOUND, 12);
    expect(delta.interval!.low).toBeLessThan(delta.delta!);
    expect(delta.interval!.high).toBeGreaterThan(delta.delta!);
  });

  it("exports the same numbers, saying which difference is paired and which is overall", () => {
    const safety = comparisonStatistics(comparison).find((s) => s.metric === SAFETY)!;
    expect(safety).toMatchObject({
      unit: "rate",
      delta: 0,
      delta_basis: "paired_rows",
      paired_rows: 6,
      unpaired_rows: 4,
      p_value: 1,
    });
    expect(safety.overall_delta).toBeCloseTo(0.2, 12);
    expect(safety.baseline_value).toBeCloseTo(0.8, 12);
    expect(safety.candidate_value).toBeCloseTo(1, 12);
    expect(safety.interval_low).toBeCloseTo(-NO_FLIP_BOUND, 12);
    expect(safety.interval_high).toBeCloseTo(NO_FLIP_BOUND, 12);
  });

  it("shows on the page the paired delta with its interval, and the overall difference as such", () => {
    const page = text(renderToStaticMarkup(createElement(MetricComparisonTable, { comparison })));
    expect(page).toContain("Paired delta 0.0 points (95% CI \u221245.9 to +45.9) on the rows both runs judged");
    expect(page).toContain("Overall yes-rates differ by +20.0 points over every judged row (not tested");
    expect(page).toContain("4 rows judged in only one run");
  });
});

/**
 * Thirty rows of faithfulness. The baseline scores rows 1–20 at 0.5 and rows 21–30 at 0.2 (average 0.4);
 * the candidate scores rows 1–20 at 0.5 and has not judged the rest (average 0.5). By hand: every paired
 * difference is 0, so the mean paired difference and its bootstrap interval are 0 and [0, 0]; the averages
 * differ by +0.1, which is not the tested delta.
 */
describe("a score delta on the rows both runs scored, with rows scored in one run only", () => {
  it("gives the mean paired difference as the delta and keeps the averages' difference apart", async () => {
    const env = await openDataset(thirtyRowsWithContext("retrieved_context", "chunk"));
    try {
      const { db, datasetId } = env;
      const baseline = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
      const candidate = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
      await scoreRun(db, baseline, [...Array(20).fill(0.5), ...Array(10).fill(0.2)], (score) => score >= 0.5);
      await scoreRun(db, candidate, Array(20).fill(0.5), (score) => score >= 0.5);
      const comparison = (await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity }))!;
      const row = comparison.metrics.find((m) => m.metric === FAITHFULNESS)!;
      expect(row.cells[baseline].aggregate?.value).toBeCloseTo(0.4, 12);
      expect(row.cells[candidate].aggregate?.value).toBeCloseTo(0.5, 12);
      const delta = row.deltas[candidate];
      expect(delta).toMatchObject({ delta: 0, pairs: 20, interval: { low: 0, high: 0 } });
      expect(delta.overallDelta).toBeCloseTo(0.1, 12);
      const exported = comparisonStatistics(comparison).find((s) => s.metric === FAITHFULNESS)!;
      expect(exported).toMatchObject({ unit: "score", delta: 0, delta_basis: "paired_rows", interval_low: 0 });
      expect(exported.overall_delta).toBeCloseTo(0.1, 12);
      const page = text(renderToStaticMarkup(createElement(MetricComparisonTable, { comparison })));
      expect(page).toContain("Averages differ by +0.10 over every judged row (not tested");
    } finally {
      await env.cleanup();
    }
  });
});
