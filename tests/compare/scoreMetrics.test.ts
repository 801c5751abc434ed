import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import { createRun } from "@/lib/engine/createRun";
import { wilsonInterval } from "@/lib/stats";
import { scoreRun, thirtyRowsWithContext } from "../support/scoreRun";
import { openDataset, type StoredDataset } from "../support/servedDataset";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const higherPasses = (score: number) => score >= 0.5;
const judge = { provider: "openai" as const, model: "judge-model" };

describe("comparing a higher-is-better score metric (faithfulness)", () => {
  let env: StoredDataset;
  beforeAll(async () => {
    env = await openDataset(thirtyRowsWithContext("retrieved_context", "chunk"));
  });
  afterAll(async () => env.cleanup());

  it("tests the per-row scores with the paired bootstrap (not as yes/no) and keeps the averages and success", async () => {
    const { db, datasetId } = env;
    const baseline = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    const candidate = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    await scoreRun(
      db,
      baseline,
      Array.from({ length: 30 }, (_, i) => 0.3 + (i % 3) * 0.1),
      higherPasses,
    );
    await scoreRun(
      db,
      candidate,
      Array.from({ length: 30 }, (_, i) => 0.6 + (i % 3) * 0.1),
      higherPasses,
    );

    const comparison = await compareRuns(db, [baseline, candidate], baseline);
    const metric = comparison?.metrics.find((m) => m.metric === FAITHFULNESS);
    expect(metric?.shape).toBe("score");
    expect(metric?.cells[baseline].aggregate?.name).toBe(`${FAITHFULNESS}/score/average`);
    expect(metric?.cells[baseline].aggregate?.value).toBeCloseTo(0.4, 12);
    expect(metric?.cells[candidate].aggregate?.value).toBeCloseTo(0.7, 12);
    expect(metric?.cells[baseline].aggregate?.success).toMatchObject({ numerator: 10, denominator: 30 });
    expect(metric?.cells[candidate].aggregate?.success).toMatchObject({ numerator: 30, denominator: 30 });
    // The success share's own Wilson interval, for the table beside the average: 10/30 and 30/30.
    expect(metric?.cells[baseline].successInterval).toEqual(wilsonInterval(10, 30));
    expect(metric?.cells[candidate].successInterval?.high).toBe(1);
    expect(metric?.cells[candidate].successInterval?.low).toBeCloseTo(0.8865, 4);
    const delta = metric?.deltas[candidate];
    expect(delta?.delta).toBeCloseTo(0.3, 12);
    expect(delta?.pairs).toBe(30);
    // A yes/no test would count flips; the score path has none and states a bootstrap interval.
    expect(delta?.flips).toBeUndefined();
    expect(delta?.verdict).toBe("better");
    expect(delta?.words).toMatch(/^Real improvement: \+0\.30 \(95% CI 0\.30 to 0\.30\)$/);
  });
});
