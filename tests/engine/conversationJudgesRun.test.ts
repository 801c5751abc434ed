import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { estimateRunSpending } from "@/lib/engine/runEstimate";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { CONVERSATION_METRICS } from "@/lib/contract/conversationMetricCatalog";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeConversationResponder } from "../support/fakeConversationResponder";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { fakeLlmConfig, readRun } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";
import { callsNamed, judgmentsWithRequestIds } from "../support/agentRuns";

// The conversation judges through the engine: each conversation judged once, on its anchor (a session's first
// turn, or a row with earlier turns), with the upstream's calls for its length, as many as the estimate said
// before the run; the other turns of a session skipped with the reason.

const METRICS = CONVERSATION_METRICS.map((metric) => metric.name);

/** Three turns of session `id`: every user turn gives a fact; `forgets` marks the last answer as forgetting one. */
function session(id: string, forgets: boolean) {
  return [1, 2, 3].map((turn) => ({
    request_id: `${id}-${turn}`,
    request: `Turn ${turn} of ${id}. FACT:k${turn}=v${turn}`,
    response: turn === 3 && forgets ? `Answer ${turn}, FORGETS k1.` : `Answer ${turn} of ${id}.`,
    session_id: id,
  }));
}

describe("the conversation judges on a run", () => {
  let db: Db;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, server, datasetId, close } = await openServedDataset(
      [
        ...session("s1", false),
        ...session("s2", true),
        {
          request_id: "history",
          request: {
            messages: [
              { role: "user", content: "My bucket is logs-eu. FACT:bucket=logs-eu" },
              { role: "assistant", content: "Noted." },
              { role: "user", content: "Which region? FACT:ask=region" },
            ],
          },
          response: "eu-west-1.",
        },
        { request_id: "single", request: "Ping?", response: "Pong." },
      ],
      { responder: (body, ctx) => fakeConversationResponder(body, ctx) ?? fakeDeepEvalCallsResponder(body, ctx) },
    ));
  });
  afterAll(async () => close());

  it("judges each conversation once with the upstream's calls, as the estimate said", async () => {
    const runId = await createRun(db, {
      datasetId,
      metrics: METRICS,
      judge: { provider: "openai", model: "judge-model" },
      concurrency: 4,
      conversation: { guidelines: ["Never break character.", "Answer in one sentence."] },
    });
    const estimate = await estimateRunSpending(db, runId, {
      gEvalStepWriters: new Set(),
      judgeModel: "judge-model",
      generationModel: null,
      chunkMode: "batched",
      heuristic: false,
      prices: {},
    });
    const run = await readRun(db, runId);
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(outcome.status).toBe("completed");

    const items = await judgmentsWithRequestIds(db, runId, datasetId);
    // Judged on the three anchors only; a later turn and a one-turn row skip, saying why.
    for (const metric of METRICS) {
      const done = items
        .filter((item) => item.metric === metric && item.status === "done")
        .map((item) => item.requestId);
      expect(done.sort(), metric).toEqual(["history", "s1-1", "s2-1"]);
    }
    expect(items.find((item) => item.requestId === "s1-2")?.skipReason).toBe(
      "judged with its conversation on the session's first turn",
    );
    expect(items.find((item) => item.requestId === "single")?.skipReason).toMatch(/^needs a conversation: /);

    // Calls each judgment made (its prompt version names them; repeated reason prompts come from the cache):
    // sessions of 3 exchanges and a conversation of 2, so 8 exchanges in all.
    const calls = (metric: string) => callsNamed(items, metric);
    const expected: Record<string, number> = {
      "conversation/llm_judged/conversation_completeness": 3,
      "conversation/llm_judged/knowledge_retention": 8,
      "conversation/llm_judged/conversational_role_adherence": 3,
      "conversation/llm_judged/conversational_safety": 3,
      "conversation/llm_judged/conversational_guidelines": 3,
      // Intentions, one verdict per intention (one per user turn here), the reason: 5 + 5 + 4.
      "conversation/deepeval/conversation_completeness": 14,
      // A verdict per unit interaction and the reason: 4 + 4 + 3.
      "conversation/deepeval/turn_relevancy": 11,
      // Knowledge per user turn, a verdict per answer after it, the reason: 7 + 7 + 5.
      "conversation/deepeval/knowledge_retention": 19,
    };
    for (const metric of METRICS) expect(calls(metric), metric).toBe(expected[metric]);
    expect(Object.fromEntries(estimate.perMetric.map((entry) => [entry.metric, entry.calls]))).toEqual(expected);

    const at = (metric: string, requestId: string) =>
      items.find((item) => item.metric === metric && item.requestId === requestId);
    // The second session's last answer forgets what turn 1 said: MLflow's worst case is no; DeepEval's share 2 of 3.
    expect(at("conversation/llm_judged/knowledge_retention", "s2-1")?.rating).toBe("no");
    expect(at("conversation/llm_judged/knowledge_retention", "s1-1")?.rating).toBe("yes");
    expect(at("conversation/deepeval/knowledge_retention", "s2-1")?.score).toBeCloseTo(2 / 3, 12);
    expect(at("conversation/deepeval/knowledge_retention", "s1-1")?.score).toBe(1);
    // The guidelines reach MLflow's prompt, and the run keeps them.
    const guidelinesCall = server.requests.find(
      (request) => request.body.response_format.json_schema.name === "mlflow_conversational_guidelines",
    );
    expect(guidelinesCall?.body.messages[0].content).toContain("<guideline>Answer in one sentence.</guideline>");
    expect(run.config.conversation).toEqual({ guidelines: ["Never break character.", "Answer in one sentence."] });
  });

  it("refuses conversational_guidelines without guidelines, saying where to give them", async () => {
    await expect(
      createRun(db, {
        datasetId,
        metrics: ["conversational_guidelines"],
        judge: { provider: "openai", model: "judge-model" },
      }),
    ).rejects.toThrow(/conversational_guidelines needs the run's guidelines/);
  });
});
