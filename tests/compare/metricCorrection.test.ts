// Fourteen metrics compared at once: a comparison reads them as one family, Holm's adjustment by default. A
// regression at a raw p of 0.035 among them is likely noise once corrected; one at p < 0.001 stays real; with
// the correction off, both are real as each metric alone would say. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricShape } from "@/lib/contract/aggregates";
import { compareRuns, type Comparison } from "@/lib/compare/compareRuns";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { adjustPValues } from "@/lib/stats";
import { importRows } from "../support/engineKit";
import { saveTestVerdict } from "../support/scoreRun";
import { createTempDb } from "../support/tempDb";

const YES_NO = ["correctness", "relevance_to_query", "safety", "groundedness", "context_sufficiency"];
const SCORES = [
  "faithfulness",
  "answer_relevancy",
  "contextual_relevancy",
  "toxicity",
  "bias",
  "bleu",
  "rouge",
  "meteor",
];
const LEVENSHTEIN = "levenshtein";
const METRICS = [...YES_NO, ...SCORES, LEVENSHTEIN];
const CORRECTNESS = "response/llm_judged/correctness";
const SAFETY = "response/llm_judged/safety";
const ROWS = 20;
const judge = { provider: "openai" as const, model: "judge-model" };

/**
 * The candidate's verdicts by row (0-based), where they differ from the baseline's yes on every row:
 * correctness no on rows 0–15 (b = 16, c = 0: McNemar p = 2 · 2⁻¹⁶ ≈ 0.00003); safety, whose baseline says no
 * on rows 17–19, no on rows 0–11 and yes on 17–19 (b = 12, c = 3: p = 2 · 576 / 2¹⁵ ≈ 0.035).
 */
function rating(metric: string, run: "baseline" | "candidate", row: number): "yes" | "no" {
  if (metric === SAFETY) {
    if (run === "baseline") return row >= 17 ? "no" : "yes";
    return row < 12 ? "no" : "yes";
  }
  if (metric === CORRECTNESS && run === "candidate") return row < 16 ? "no" : "yes";
  return "yes";
}

/** Judges every item of a run: yes/no metrics by `rating`, every score metric 0.8 on both runs (no change). */
async function judgeRun(db: Db, datasetId: string, runId: string, run: "baseline" | "candidate") {
  const rowNumbers = new Map(
    (await db.datasetRow.findMany({ where: { datasetId }, select: { id: true, rowNumber: true } })).map((row) => [
      row.id,
      row.rowNumber,
    ]),
  );
  const items = await db.judgmentItem.findMany({ where: { runId }, select: { id: true, rowId: true, metric: true } });
  for (const item of items) {
    const yesNo = metricShape(item.metric) === "rating";
    const verdict = yesNo ? rating(item.metric, run, rowNumbers.get(item.rowId)! - 1) : null;
    await saveTestVerdict(
      db,
      { ...item, runId },
      {
        rating: verdict,
        score: yesNo ? null : 0.8,
        threshold: yesNo ? null : 0.5,
        passed: yesNo ? verdict === "yes" : true,
      },
    );
  }
}

describe("a comparison of fourteen metrics, read together", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let baseline: string;
  let candidate: string;
  const compare = (options: Parameters<typeof compareRuns>[3] = {}) =>
    compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity, ...options }) as Promise<Comparison>;
  const deltaOf = (comparison: Comparison, metric: string) =>
    comparison.metrics.find((m) => m.metric === metric)!.deltas[candidate];

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await importRows(
      db,
      Array.from({ length: ROWS }, (_, i) => ({
        request_id: `r${i + 1}`,
        request: `What is ${i + 1} squared?`,
        response: `It is ${(i + 1) ** 2}.`,
        expected_response: `${(i + 1) ** 2}`,
        retrieved_context: [{ content: `The square of ${i + 1} is ${(i + 1) ** 2}.`, doc_uri: `d${i}` }],
      })),
    );
    baseline = await createRun(db, { datasetId, metrics: METRICS, judge });
    candidate = await createRun(db, { datasetId, metrics: METRICS, judge });
    await judgeRun(db, datasetId, baseline, "baseline");
    await judgeRun(db, datasetId, candidate, "candidate");
  });
  afterAll(async () => cleanup());

  it("corrects with Holm by default: a raw p of 0.035 is likely noise, a p below 0.001 stays a real regression", async () => {
    const comparison = await compare();
    expect(comparison.correction).toEqual({ method: "holm", alpha: 0.05, family: { [candidate]: 14 } });
    const safety = deltaOf(comparison, SAFETY);
    expect(safety.pValue).toBeCloseTo((2 * 576) / 2 ** 15, 12);
    expect(safety.verdict).toBe("noise");
    // Second smallest of 14: multiplied by 13 (and never below the smallest's adjusted value).
    expect(safety.adjustedPValue).toBeCloseTo((13 * 2 * 576) / 2 ** 15, 12);
    expect(safety.words).toBe(
      "Likely noise after correcting for 14 metrics: \u221245.0 points (p = 0.035, Holm-adjusted p = 0.46)",
    );
    const correctness = deltaOf(comparison, CORRECTNESS);
    expect(correctness.pValue).toBeCloseTo(2 * 2 ** -16, 15);
    expect(correctness.adjustedPValue).toBeCloseTo(14 * 2 * 2 ** -16, 15);
    expect(correctness).toMatchObject({ verdict: "worse", flips: { regressions: 16, improvements: 0 } });
    expect(correctness.words).toBe(
      "Real regression after correcting for 14 metrics: \u221280.0 points (McNemar p < 0.001, Holm-adjusted p < 0.001)",
    );
    // Every other metric did not change: p = 1, adjusted 1, likely noise.
    for (const metric of comparison.metrics.filter((m) => m.metric !== SAFETY && m.metric !== CORRECTNESS))
      expect(metric.deltas[candidate], metric.metric).toMatchObject({ verdict: "noise", pValue: 1, adjustedPValue: 1 });
  });

  it("adjusts the same p-values as the correction itself, metric by metric", async () => {
    const comparison = await compare({ correction: "bh" });
    const tested = comparison.metrics.map((m) => m.deltas[candidate]);
    const expected = adjustPValues(
      tested.map((delta) => delta.pValue!),
      "bh",
    );
    expect(tested.map((delta) => delta.adjustedPValue)).toEqual(expected);
    // Benjamini–Hochberg: safety's 0.035 × 14 / 2 = 0.25, still above 0.05.
    expect(deltaOf(comparison, SAFETY)).toMatchObject({ verdict: "noise" });
    expect(deltaOf(comparison, SAFETY).words).toContain("Benjamini–Hochberg-adjusted p = 0.25");
    expect(deltaOf(comparison, CORRECTNESS)).toMatchObject({ verdict: "worse" });
  });

  it("with no correction gives each metric's own verdict, as before: both regressions are real", async () => {
    const comparison = await compare({ correction: "none" });
    expect(comparison.correction.method).toBe("none");
    const safety = deltaOf(comparison, SAFETY);
    expect(safety).toMatchObject({ verdict: "worse", words: "Real regression: \u221245.0 points (McNemar p = 0.035)" });
    expect(safety.adjustedPValue).toBeUndefined();
    expect(deltaOf(comparison, CORRECTNESS).verdict).toBe("worse");
    // The interval shown is the one that inverts McNemar's test: it excludes 0 because p < 0.05.
    expect(safety.interval!.high).toBeLessThan(0);
  });
});
