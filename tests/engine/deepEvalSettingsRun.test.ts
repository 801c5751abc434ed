import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { runExportMeta } from "@/lib/export/runResults";
import { decodeVerdictDetails } from "@/lib/db/judgments/verdictDetails";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import { readRun, runToCompletion } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";

// A run's DeepEval options end to end: config → stored run → the engine's judgments → the export.

const FAITHFULNESS = "response/llm_judged/faithfulness";
const TOXICITY = "response/llm_judged/toxicity";

describe("DeepEval's options on a run", () => {
  let db: Db;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, server, datasetId, close } = await openServedDataset(
      [
        {
          request_id: "faithful",
          request: "Hours?",
          response: "We open at 9. We close at 5.",
          retrieved_context: [{ content: "Open 9 to 5.", doc_uri: "d1" }],
        },
        {
          request_id: "half",
          request: "Weekends?",
          response: "We open at 9. OPINION TOXIC only fools ask. It CONTRADICTS the context.",
          retrieved_context: [{ content: "Closed on weekends.", doc_uri: "d2" }],
        },
        {
          request_id: "plain",
          request: "Name?",
          response: "OPINION the name is fine.",
          retrieved_context: [{ content: "Acme.", doc_uri: "d3" }],
        },
      ],
      { responder: (body, ctx) => fakeDeepEvalCallsResponder(body, ctx) ?? fakeScoreMetricResponder(body, ctx) },
    ));
  });
  afterAll(async () => close());

  const judgments = async (runId: string, metric: string) =>
    Object.fromEntries(
      (
        await db.judgmentItem.findMany({
          where: { runId, metric },
          select: { score: true, passed: true, threshold: true, details: true, row: { select: { requestId: true } } },
        })
      ).map((j) => [j.row.requestId, { ...j, details: decodeVerdictDetails(j.details) }]),
    );

  it("strict_mode: scores are 1 or 0 against a threshold of 1 (0 where lower is better), the unstrict score kept", async () => {
    const { runId, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["faithfulness", "toxicity"],
        judge: { provider: "openai", model: "judge-model" },
        thresholds: { faithfulness: 0.3 },
        deepEval: { strictMode: true, listCap: 25 },
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");
    const run = await readRun(db, runId);
    expect(run.config.deepEval).toEqual({ strictMode: true, listCap: 25 });
    // Strict mode's pass marks win over the run's own.
    expect([run.config.thresholds[FAITHFULNESS], run.config.thresholds[TOXICITY]]).toEqual([1, 0]);

    const faithfulness = await judgments(runId, FAITHFULNESS);
    expect([faithfulness.faithful.score, faithfulness.faithful.passed, faithfulness.faithful.threshold]).toEqual([
      1,
      true,
      1,
    ]);
    expect([faithfulness.half.score, faithfulness.half.passed]).toEqual([0, false]);
    expect(faithfulness.half.details?.figures?.score_before_strict_mode).toBeCloseTo(2 / 3, 12);
    expect(faithfulness.half.details?.notes).toContain(
      "strict_mode: the score is 1 or 0, and the threshold is 1 (0 where lower is better).",
    );

    const toxicity = await judgments(runId, TOXICITY);
    expect([toxicity.half.score, toxicity.half.passed, toxicity.half.threshold]).toEqual([1, false, 0]);
    expect([toxicity.plain.score, toxicity.plain.passed]).toEqual([0, true]);

    const meta = await runExportMeta(db, runId);
    expect(meta.run.settings.deepeval).toEqual({
      deepeval_exact: false,
      call_structure: "folded",
      strict_mode: true,
      include_reason: true,
      penalize_ambiguous_claims: false,
      summarization_n: 5,
      assessment_questions: null,
      list_cap: 25,
      truths_extraction_limit: null,
    });
  });

  it("judges with DeepEval's own calls when the run asks: the estimate's calls, the folded scores", async () => {
    const before = server.requests.length;
    const { runId, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["faithfulness", "toxicity"],
        judge: { provider: "openai", model: "judge-model" },
        deepEval: { callStructure: "deepeval" },
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");
    // Faithfulness 4 calls a row (truths, claims, verdicts, reason), toxicity 3 where there are opinions and
    // 2 where there are none (no verdicts call): 3 × 4 + 3 + 3 + 2 = 20 calls.
    const versions = await db.judgmentItem.findMany({ where: { runId }, select: { promptVersion: true } });
    expect(versions.map((v) => v.promptVersion).sort()).toEqual([
      "deepeval_calls/v1 faithfulness (4 calls)",
      "deepeval_calls/v1 faithfulness (4 calls)",
      "deepeval_calls/v1 faithfulness (4 calls)",
      "deepeval_calls/v1 toxicity (2 calls)",
      "deepeval_calls/v1 toxicity (3 calls)",
      "deepeval_calls/v1 toxicity (3 calls)",
    ]);
    // Two pairs of rows ask the same reason prompt (the same score with nothing to explain): 18 distinct
    // prompts; the second of a pair comes from the cache unless both were asked at once.
    const asked = server.requests.slice(before).map((r) => JSON.stringify(r.body.messages));
    expect(new Set(asked).size).toBe(18);
    expect(asked.length).toBeLessThanOrEqual(20);
    const faithfulness = await judgments(runId, FAITHFULNESS);
    expect(faithfulness.half.score).toBeCloseTo(2 / 3, 12);
    expect(faithfulness.faithful.score).toBe(1);
    const stored = await db.judgmentItem.findFirst({
      where: { runId, metric: FAITHFULNESS },
      select: { promptVersion: true },
    });
    expect(stored?.promptVersion).toBe("deepeval_calls/v1 faithfulness (4 calls)");
    expect((await readRun(db, runId)).config.deepEval).toEqual({ callStructure: "deepeval" });
  });

  it("stores nothing for options left at DeepEval's defaults, and the export names the defaults", async () => {
    const { runId } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["faithfulness"],
        judge: { provider: "openai", model: "judge-model" },
        deepEval: { strictMode: false, includeReason: true, listCap: 40 },
      },
      server.url,
    );
    const run = await readRun(db, runId);
    expect(run.config.deepEval).toBeUndefined();
    expect(run.config.thresholds[FAITHFULNESS]).toBeUndefined();
    expect((await judgments(runId, FAITHFULNESS)).half.score).toBeCloseTo(2 / 3, 12);
    expect((await runExportMeta(db, runId)).run.settings.deepeval?.strict_mode).toBe(false);
  });
});
