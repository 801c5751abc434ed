import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { compareRuns } from "@/lib/compare/compareRuns";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";
import { scoreRun } from "../support/scoreRun";

const HALLUCINATION = "response/llm_judged/hallucination";
const lowerPasses = (score: number) => score <= 0.5;
const judge = { provider: "openai" as const, model: "judge-model" };

describe("comparing a lower-is-better score (hallucination)", () => {
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
        expected_retrieved_context: [{ content: `ideal ${i}`, doc_uri: `d${i}` }],
      })),
    );
  });
  afterAll(async () => cleanup());

  it("calls a drop in the score an improvement and a rise a regression", async () => {
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
