// Two runs that judged each row three times, compared: the row (its mean over its trials) is the unit of the
// paired test, never the trial. Verdicts are written directly, so every expected number is computed here from
// them. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns, type Comparison } from "@/lib/compare/compareRuns";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { pairedBootstrapMeanDiff } from "@/lib/stats";
import { BOOTSTRAP_ITERATIONS, BOOTSTRAP_SEED } from "@/lib/compare/bootstrapIntervals";
import { importRows } from "../support/engineKit";
import { saveTestVerdict } from "../support/scoreRun";
import { createTempDb } from "../support/tempDb";

const CORRECTNESS = "response/llm_judged/correctness";
const BLEU = "response/statistical/bleu";
const ROWS = 30;
const TRIALS = 3;
const judge = { provider: "openai" as const, model: "judge-model" };

/** How many of a row's three trials say yes: the baseline passes 3 of 3 on every row; the candidate fewer on some. */
function yesCount(run: "baseline" | "candidate", row: number): number {
  if (run === "baseline") return 3;
  return row < 10 ? 1 : row < 15 ? 2 : 3;
}
/** A row's score in one trial: the candidate's mean is 0.1 lower on every row, its trials spread around it. */
function score(run: "baseline" | "candidate", row: number, trial: number): number {
  const base = 0.5 + (row % 5) * 0.05;
  return run === "baseline" ? base : base - 0.1 + (trial - 2) * 0.02;
}

async function judgeRun(db: Db, datasetId: string, runId: string, run: "baseline" | "candidate") {
  const rows = await db.datasetRow.findMany({ where: { datasetId }, select: { id: true, rowNumber: true } });
  const rowNumber = new Map(rows.map((row) => [row.id, row.rowNumber - 1]));
  const items = await db.judgmentItem.findMany({
    where: { runId },
    select: { id: true, rowId: true, metric: true, trial: true },
  });
  for (const { trial, ...item } of items) {
    const row = rowNumber.get(item.rowId) ?? -1;
    const yesNo = item.metric === CORRECTNESS;
    const rating = yesNo ? (trial <= yesCount(run, row) ? "yes" : "no") : null;
    await saveTestVerdict(
      db,
      { ...item, runId },
      {
        rating,
        score: yesNo ? null : score(run, row, trial),
        threshold: yesNo ? null : 0.5,
        passed: yesNo ? rating === "yes" : score(run, row, trial) >= 0.5,
        rationale: `trial ${trial}`,
      },
    );
  }
}

describe("a comparison of runs with trials", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let baseline: string;
  let candidate: string;
  let comparison: Comparison;
  const deltaOf = (metric: string) => comparison.metrics.find((m) => m.metric === metric)!.deltas[candidate];

  /** The same thirty requests; each upload its own dataset (as each CI build uploads its own file). */
  const upload = () =>
    importRows(
      db,
      Array.from({ length: ROWS }, (_, i) => ({
        request_id: `r${i + 1}`,
        request: `What is ${i + 1} squared?`,
        response: `It is ${(i + 1) ** 2}.`,
        expected_response: `${(i + 1) ** 2}`,
      })),
    );

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    const datasetId = await upload();
    const config = { datasetId, metrics: [CORRECTNESS, BLEU], judge, trials: TRIALS };
    baseline = await createRun(db, config);
    candidate = await createRun(db, config);
    await judgeRun(db, datasetId, baseline, "baseline");
    await judgeRun(db, datasetId, candidate, "candidate");
    comparison = (await compareRuns(db, [baseline, candidate], baseline, {
      waitMs: Infinity,
      correction: "none",
    })) as Comparison;
  });
  afterAll(async () => cleanup());

  it("tests a yes/no metric on the rows' pass rates: 30 rows, not 90 trials", () => {
    const rates = (run: "baseline" | "candidate") =>
      Array.from({ length: ROWS }, (_, row) => yesCount(run, row) / TRIALS);
    const expected = pairedBootstrapMeanDiff(rates("baseline"), rates("candidate"), {
      iterations: BOOTSTRAP_ITERATIONS,
      seed: BOOTSTRAP_SEED,
      confidence: 0.95,
    })!;
    const delta = deltaOf(CORRECTNESS);
    expect(delta.pairs).toBe(ROWS);
    expect(delta.method).toBe("paired_bootstrap");
    // (10 rows × −2/3 + 5 rows × −1/3) / 30
    expect(delta.delta).toBeCloseTo((10 * (-2 / 3) + 5 * (-1 / 3)) / ROWS, 12);
    expect(delta.interval?.low).toBeCloseTo(expected.low, 12);
    expect(delta.interval?.high).toBeCloseTo(expected.high, 12);
    expect(delta.pValue).toBeCloseTo(expected.pValue, 12);
    expect(delta.verdict).toBe("worse");
  });

  it("tests a score metric on the rows' mean scores over their trials", () => {
    const delta = deltaOf(BLEU);
    expect(delta.pairs).toBe(ROWS);
    expect(delta.method).toBe("paired_bootstrap");
    // Each row's mean over trials 1–3 is base − 0.1 (the spread cancels): every row 0.1 lower.
    expect(delta.delta).toBeCloseTo(-0.1, 12);
    expect(delta.verdict).toBe("worse");
  });

  it("with the default correction the two metrics are read together and both stay real", async () => {
    const holm = (await compareRuns(db, [baseline, candidate], baseline, { waitMs: Infinity })) as Comparison;
    expect(holm.correction.family[candidate]).toBe(2);
    for (const metric of [CORRECTNESS, BLEU]) {
      const delta = holm.metrics.find((m) => m.metric === metric)!.deltas[candidate];
      expect(delta.adjustedPValue).toBeGreaterThanOrEqual(delta.pValue ?? 1);
      expect(delta.verdict).toBe("worse");
    }
  });

  it("pairs the rows of two uploads of the same requests by request_id, with the same numbers", async () => {
    const datasetId = await upload();
    const other = await createRun(db, { datasetId, metrics: [CORRECTNESS, BLEU], judge, trials: TRIALS });
    await judgeRun(db, datasetId, other, "candidate");
    const across = (await compareRuns(db, [baseline, other], baseline, {
      waitMs: Infinity,
      correction: "none",
    })) as Comparison;
    for (const metric of [CORRECTNESS, BLEU]) {
      const delta = across.metrics.find((m) => m.metric === metric)!.deltas[other];
      const same = deltaOf(metric);
      expect(delta.pairs).toBe(ROWS);
      expect(delta.delta).toBeCloseTo(same.delta!, 12);
      expect(delta.interval?.low).toBeCloseTo(same.interval!.low, 12);
      expect(delta.interval?.high).toBeCloseTo(same.interval!.high, 12);
      expect(delta.pValue).toBeCloseTo(same.pValue!, 12);
    }
  });
});
