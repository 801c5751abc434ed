import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { saveJudgment } from "@/lib/db/runWrites";
import { compareRuns } from "@/lib/compare/compareRuns";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const judge = { provider: "openai" as const, model: "judge-model" };

/** Writes a score for every pending item of a run, row by row in request order. */
async function scoreRun(db: Db, runId: string, scores: number[]) {
  const items = await db.judgmentItem.findMany({
    where: { runId },
    orderBy: { row: { rowNumber: "asc" } },
    select: { id: true, rowId: true, metric: true },
  });
  items.forEach((item, i) =>
    saveJudgment(
      db,
      { ...item, runId },
      {
        rating: null,
        score: scores[i],
        rationale: "written by the test",
        errorMessage: null,
        provider: "openai",
        model: "judge-model",
        promptVersion: "test",
        promptHash: null,
        usage: null,
        cacheHit: false,
        attempts: 1,
        latencyMs: 0,
        threshold: 0.5,
        passed: scores[i] >= 0.5,
        costUsd: null,
      },
    ),
  );
}

describe("comparing a higher-is-better score metric (faithfulness)", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(
      db,
      Array.from({ length: 30 }, (_, i) => ({
        request_id: `r${i}`,
        request: `question ${i}`,
        response: `answer ${i}`,
        retrieved_context: [{ content: `chunk ${i}`, doc_uri: `d${i}` }],
      })),
    );
  });
  afterAll(async () => cleanup());

  it("tests the per-row scores with the paired bootstrap (not as yes/no) and keeps the averages and success", async () => {
    const baseline = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    const candidate = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    await scoreRun(
      db,
      baseline,
      Array.from({ length: 30 }, (_, i) => 0.3 + (i % 3) * 0.1),
    );
    await scoreRun(
      db,
      candidate,
      Array.from({ length: 30 }, (_, i) => 0.6 + (i % 3) * 0.1),
    );

    const comparison = await compareRuns(db, [baseline, candidate], baseline);
    const metric = comparison?.metrics.find((m) => m.metric === FAITHFULNESS);
    expect(metric?.shape).toBe("score");
    expect(metric?.cells[baseline].aggregate?.name).toBe(`${FAITHFULNESS}/score/average`);
    expect(metric?.cells[baseline].aggregate?.value).toBeCloseTo(0.4, 12);
    expect(metric?.cells[candidate].aggregate?.value).toBeCloseTo(0.7, 12);
    expect(metric?.cells[baseline].aggregate?.success).toMatchObject({ numerator: 10, denominator: 30 });
    expect(metric?.cells[candidate].aggregate?.success).toMatchObject({ numerator: 30, denominator: 30 });
    const delta = metric?.deltas[candidate];
    expect(delta?.delta).toBeCloseTo(0.3, 12);
    expect(delta?.pairs).toBe(30);
    // A yes/no test would count flips; the score path has none and states a bootstrap interval.
    expect(delta?.flips).toBeUndefined();
    expect(delta?.verdict).toBe("better");
    expect(delta?.words).toMatch(/^Real improvement: \+0\.30 \(95% CI 0\.30 to 0\.30\)$/);
  });
});
