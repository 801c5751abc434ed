import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareRuns } from "@/lib/compare/compareRuns";
import { createRun } from "@/lib/engine/createRun";
import { type Responder } from "../support/fakeOpenAIServer";
import { runToCompletion } from "../support/engineKit";
import { scoreRun, thirtyRowsWithContext } from "../support/scoreRun";
import { openDataset, openServedDataset, type ServedDataset, type StoredDataset } from "../support/servedDataset";

const COHERENCE = "response/llm_judged/g_eval/coherence";
const FAITHFULNESS = "response/llm_judged/faithfulness";
const judge = { provider: "openai" as const, model: "judge-model" };

const responder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") return JSON.stringify({ steps: ["Read the output.", "Score 1-5."] });
  if (name === "g_eval_score") return JSON.stringify({ score: 4, reason: "judged by the fake" });
  return undefined;
};
const coherence = (threshold: number) => ({
  name: "coherence",
  criteria: "Coherence - the collective quality of all sentences in the actual output.",
  evaluationParams: ["input", "actual_output"] as ("input" | "actual_output")[],
  threshold,
});

/**
 * "Judged differently" compares the pass mark each run's judgments were scored against (JudgmentItem.threshold),
 * not how the runs' settings spell it: a G-Eval judge's own threshold counts, and an unset mark is its default.
 */
describe("pass marks in the judged-differently note", () => {
  let served: ServedDataset;
  let stored: StoredDataset;

  beforeAll(async () => {
    served = await openServedDataset(
      Array.from({ length: 6 }, (_, i) => ({ request_id: `r${i}`, request: `Q${i}?`, response: `Answer ${i}.` })),
      { responder },
    );
    stored = await openDataset(thirtyRowsWithContext("retrieved_context", "chunk"));
  });
  afterAll(async () => {
    await served.close();
    await stored.cleanup();
  });

  it("names two G-Eval judges' different pass marks (0.5 vs 0.8)", async () => {
    const { db, datasetId, server } = served;
    const run = (threshold: number) =>
      runToCompletion(db, { datasetId, gEvalJudges: [coherence(threshold)], judge }, server.url);
    const { runId: lenient } = await run(0.5);
    const { runId: strict } = await run(0.8);
    const { runId: lenientAgain } = await run(0.5);
    const comparison = await compareRuns(db, [lenient, strict, lenientAgain], lenient, { waitMs: Infinity });
    const row = comparison!.metrics.find((m) => m.metric === COHERENCE)!;
    expect(row.deltas[strict].judgedDifferently).toBe(
      "Judged differently: pass mark 0.5 vs 0.8. The difference may be the judge, not the model.",
    );
    expect(row.deltas[lenientAgain].judgedDifferently).toBeUndefined();
  });

  it("sees no difference between an unset pass mark and the same value set explicitly", async () => {
    const { db, datasetId } = stored;
    const unset = await createRun(db, { datasetId, metrics: ["faithfulness"], judge });
    const explicit = await createRun(db, {
      datasetId,
      metrics: ["faithfulness"],
      judge,
      thresholds: { faithfulness: 0.5 },
    });
    const stricter = await createRun(db, {
      datasetId,
      metrics: ["faithfulness"],
      judge,
      thresholds: { faithfulness: 0.7 },
    });
    const scores = Array.from({ length: 30 }, (_, i) => 0.4 + (i % 3) * 0.1);
    // Each run's judgments record the mark the engine held them to: the default 0.5 where none is set.
    await scoreRun(db, unset, scores, (score) => score >= 0.5);
    await scoreRun(db, explicit, scores, (score) => score >= 0.5);
    await scoreRun(db, stricter, scores, (score) => score >= 0.7, 0.7);
    const comparison = await compareRuns(db, [unset, explicit, stricter], unset, { waitMs: Infinity });
    const row = comparison!.metrics.find((m) => m.metric === FAITHFULNESS)!;
    expect(row.deltas[explicit].judgedDifferently).toBeUndefined();
    expect(row.deltas[stricter].judgedDifferently).toBe(
      "Judged differently: pass mark 0.5 vs 0.7. The difference may be the judge, not the model.",
    );
  });
});
