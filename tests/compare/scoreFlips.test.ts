import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import type { Db } from "@/lib/db/client";
import { getPairedCounts, listFlips, type Flip } from "@/lib/db/judgments/compareQueries";

import { createRun } from "@/lib/engine/createRun";
import { scorePasses } from "@/lib/contract/thresholds";
import { openDataset, type StoredDataset } from "../support/servedDataset";
import { saveTestVerdict } from "../support/scoreRun";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const HALLUCINATION = "response/llm_judged/hallucination";
const SAFETY = "response/llm_judged/safety";
const PASS_MARK = 0.5;
const judge = { provider: "openai" as const, model: "judge-model" };

/**
 * Six rows r0–r5, three metrics, pass mark 0.5. Hand-worked flips:
 *   faithfulness (higher is better): r0 0.82→0.31 and r4 0.6→0.4 pass→fail; r1 0.3→0.8 fail→pass;
 *     r5's candidate errored, so it is not paired.
 *   hallucination (lower is better): r0 0.2→0.8 pass→fail (the score went up: a regression);
 *     r1 0.9→0.1 fail→pass; r2 0.3→0.35 rose but still passes: no flip.
 *   safety (yes/no): r2 and r5 yes→no; r1 no→yes.
 * Regressions 5 (r0 faithfulness, r0 hallucination, r2 safety, r4 faithfulness, r5 safety), improvements 3 (r1 ×3).
 */
type Side = number | "yes" | "no" | "error";
const BASELINE: Record<string, Side[]> = {
  [FAITHFULNESS]: [0.82, 0.3, 0.9, 0.2, 0.6, 0.7],
  [HALLUCINATION]: [0.2, 0.9, 0.3, 0.4, 0.1, 0.7],
  [SAFETY]: ["yes", "no", "yes", "no", "yes", "yes"],
};
const CANDIDATE: Record<string, Side[]> = {
  [FAITHFULNESS]: [0.31, 0.8, 0.95, 0.1, 0.4, "error"],
  [HALLUCINATION]: [0.8, 0.1, 0.35, 0.45, 0.1, 0.9],
  [SAFETY]: ["yes", "yes", "no", "no", "yes", "no"],
};

async function judgeRun(db: Db, runId: string, sides: Record<string, Side[]>) {
  const items = await db.judgmentItem.findMany({
    where: { runId },
    select: { id: true, rowId: true, metric: true, row: { select: { rowNumber: true } } },
  });
  const firstRow = Math.min(...items.map((item) => item.row.rowNumber));
  for (const item of items) {
    const side = sides[item.metric][item.row.rowNumber - firstRow];
    const score = typeof side === "number" ? side : null;
    const rating = side === "yes" || side === "no" ? side : null;
    await saveTestVerdict(
      db,
      { id: item.id, runId, rowId: item.rowId, metric: item.metric },
      {
        rating,
        score,
        threshold: score === null ? null : PASS_MARK,
        passed: rating !== null ? rating === "yes" : score === null ? null : scorePasses(item.metric, score, PASS_MARK),
        ...(side === "error" ? { errorMessage: "judge timed out" } : {}),
      },
    );
  }
}

const label = (f: Flip) => `${f.requestId} ${f.metric.split("/").pop()} ${f.baseline}→${f.candidate}`;

describe("flipped rows cover score metrics (success that changed)", () => {
  let env: StoredDataset;
  let baseline: string;
  let candidate: string;
  beforeAll(async () => {
    env = await openDataset(
      Array.from({ length: 6 }, (_, i) => ({
        request_id: `r${i}`,
        request: `question ${i}`,
        response: `answer ${i}`,
        retrieved_context: [{ content: `chunk ${i}`, doc_uri: `d${i}` }],
        expected_retrieved_context: [{ content: `ideal ${i}`, doc_uri: `e${i}` }],
      })),
    );
    const metrics = ["faithfulness", "hallucination", "safety"];
    baseline = await createRun(env.db, { datasetId: env.datasetId, metrics, judge });
    candidate = await createRun(env.db, { datasetId: env.datasetId, metrics, judge });
    await judgeRun(env.db, baseline, BASELINE);
    await judgeRun(env.db, candidate, CANDIDATE);
  });
  afterAll(async () => env.cleanup());

  it("counts success flips per score metric in the same GROUP BY, apart from the yes/no cells", async () => {
    const counts = await getPairedCounts(env.db, baseline, candidate);
    const byMetric = Object.fromEntries(counts.map((c) => [c.metric, c]));
    expect(byMetric[FAITHFULNESS]).toEqual({
      metric: FAITHFULNESS,
      both: 0,
      yesYes: 0,
      yesNo: 0,
      noYes: 0,
      noNo: 0,
      passFail: 2,
      failPass: 1,
      onlyBaseline: 0,
      onlyCandidate: 0,
    });
    expect(byMetric[HALLUCINATION]).toMatchObject({ both: 0, yesNo: 0, noYes: 0, passFail: 1, failPass: 1 });
    expect(byMetric[SAFETY]).toEqual({
      metric: SAFETY,
      both: 6,
      yesYes: 2,
      yesNo: 2,
      noYes: 1,
      noNo: 1,
      passFail: 0,
      failPass: 0,
      onlyBaseline: 0,
      onlyCandidate: 0,
    });
  });

  it("lists regressions (yes→no and pass→fail) first, then improvements, by row and metric, with the exact total", async () => {
    const all = await listFlips(env.db, baseline, candidate, { offset: 0, limit: 50 });
    expect(all.total).toBe(8);
    expect(all.items.map(label)).toEqual([
      "r0 faithfulness pass→fail",
      "r0 hallucination pass→fail",
      "r2 safety yes→no",
      "r4 faithfulness pass→fail",
      "r5 safety yes→no",
      "r1 faithfulness fail→pass",
      "r1 hallucination fail→pass",
      "r1 safety no→yes",
    ]);
    expect(all.items.map((f) => f.regression)).toEqual([true, true, true, true, true, false, false, false]);
    expect(all.items[0]).toMatchObject({
      kind: "success",
      baselineScore: 0.82,
      candidateScore: 0.31,
      baselineThreshold: PASS_MARK,
      candidateThreshold: PASS_MARK,
    });
    expect(all.items[2]).toMatchObject({ kind: "verdict", baselineScore: null, baselineThreshold: null });
  });

  it("calls a lower-is-better score that went up past its pass mark a regression", async () => {
    const hallucination = await listFlips(env.db, baseline, candidate, { metric: HALLUCINATION, offset: 0, limit: 50 });
    expect(hallucination.total).toBe(2);
    expect(hallucination.items[0]).toMatchObject({
      requestId: "r0",
      regression: true,
      baseline: "pass",
      candidate: "fail",
      baselineScore: 0.2,
      candidateScore: 0.8,
    });
    const regressions = await listFlips(env.db, baseline, candidate, {
      metric: HALLUCINATION,
      direction: "regressions",
      offset: 0,
      limit: 50,
    });
    expect(regressions.total).toBe(1);
    expect(regressions.items.map(label)).toEqual(["r0 hallucination pass→fail"]);
  });

  it("filters by direction and metric and pages on the server, totals from the counts", async () => {
    const regressions = await listFlips(env.db, baseline, candidate, { direction: "regressions", offset: 2, limit: 2 });
    expect(regressions.total).toBe(5);
    expect(regressions.items.map(label)).toEqual(["r2 safety yes→no", "r4 faithfulness pass→fail"]);
    const improvements = await listFlips(env.db, baseline, candidate, {
      direction: "improvements",
      offset: 0,
      limit: 2,
    });
    expect(improvements.total).toBe(3);
    expect(improvements.items.map(label)).toEqual(["r1 faithfulness fail→pass", "r1 hallucination fail→pass"]);
    const lastPage = await listFlips(env.db, baseline, candidate, { offset: 6, limit: 2 });
    expect(lastPage.items.map(label)).toEqual(["r1 hallucination fail→pass", "r1 safety no→yes"]);
    const faithfulness = await listFlips(env.db, baseline, candidate, {
      metric: FAITHFULNESS,
      direction: "improvements",
      offset: 0,
      limit: 50,
    });
    expect(faithfulness.total).toBe(1);
    expect(faithfulness.items.map(label)).toEqual(["r1 faithfulness fail→pass"]);
    const safety = await listFlips(env.db, baseline, candidate, { metric: SAFETY, offset: 0, limit: 50 });
    expect(safety.total).toBe(3);
    expect(safety.items.map(label)).toEqual(["r2 safety yes→no", "r5 safety yes→no", "r1 safety no→yes"]);
  });

  it("leaves McNemar's yes/no counts and the score test as they were", async () => {
    const comparison = await compareRuns(env.db, [baseline, candidate], baseline);
    const safety = comparison?.metrics.find((m) => m.metric === SAFETY)?.deltas[candidate];
    expect(safety).toMatchObject({ pairs: 6, flips: { regressions: 2, improvements: 1 } });
    const faithfulness = comparison?.metrics.find((m) => m.metric === FAITHFULNESS)?.deltas[candidate];
    expect(faithfulness?.flips).toBeUndefined();
    expect(faithfulness?.pairs).toBe(5);
  });
});
