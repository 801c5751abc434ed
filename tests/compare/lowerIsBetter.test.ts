import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import { createRun } from "@/lib/engine/createRun";
import { scoreRun, thirtyRowsWithContext } from "../support/scoreRun";
import { openDataset, type StoredDataset } from "../support/servedDataset";

const HALLUCINATION = "response/llm_judged/hallucination";
const lowerPasses = (score: number) => score <= 0.5;
const judge = { provider: "openai" as const, model: "judge-model" };

describe("comparing a lower-is-better score (hallucination)", () => {
  let env: StoredDataset;
  beforeAll(async () => {
    env = await openDataset(thirtyRowsWithContext("expected_retrieved_context", "ideal"));
  });
  afterAll(async () => env.cleanup());

  it("calls a drop in the score an improvement and a rise a regression", async () => {
    const { db, datasetId } = env;
    const baseline = await createRun(db, { datasetId, metrics: ["hallucination"], judge });
    const better = await createRun(db, { datasetId, metrics: ["hallucination"], judge });
    await scoreRun(
      db,
      baseline,
      Array.from({ length: 30 }, (_, i) => 0.6 + (i % 3) * 0.1),
      lowerPasses,
    );
    await scoreRun(
      db,
      better,
      Array.from({ length: 30 }, (_, i) => 0.1 + (i % 3) * 0.1),
      lowerPasses,
    );

    const comparison = await compareRuns(db, [baseline, better], baseline);
    const metric = comparison?.metrics.find((m) => m.metric === HALLUCINATION);
    expect(metric?.shape).toBe("score");
    expect(metric?.deltas[better].delta).toBeCloseTo(-0.5, 12);
    expect(metric?.deltas[better].verdict).toBe("better");
    expect(metric?.deltas[better].words).toMatch(/^Real improvement: −0\.50 .*lower is better\)$/);

    const reversed = await compareRuns(db, [better, baseline], better);
    expect(reversed?.metrics.find((m) => m.metric === HALLUCINATION)?.deltas[baseline].verdict).toBe("worse");
  });
});
