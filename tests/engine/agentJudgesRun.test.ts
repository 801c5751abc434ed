import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { estimateRunSpending } from "@/lib/engine/runEstimate";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeAgentJudgeResponder } from "../support/fakeAgentJudgeResponder";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { fakeLlmConfig, readRun } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";
import { callsNamed, judgmentsWithRequestIds } from "../support/agentRuns";
import type { EvalObject } from "../support/evalFiles";

// The agent's LLM judges through the engine, the openai SDK and the fake server: each row makes the upstream's
// number of calls (MLflow's tool-call judges 1; DeepEval's argument correctness 1 + the reason, none without
// tool calls; task completion and step efficiency 2), the run's estimate says the same before it starts, and
// the verdicts follow from what each call read.

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/agent/tool-call-cases.jsonl");
const METRICS = [
  "agent/llm_judged/tool_call_correctness",
  "agent/llm_judged/tool_call_efficiency",
  "agent/llm_judged/argument_correctness",
  "agent/llm_judged/task_completion",
  "agent/llm_judged/step_efficiency",
];

function fixtureRows(): EvalObject[] {
  return fs
    .readFileSync(FIXTURE, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line): EvalObject => JSON.parse(line));
}

describe("the agent's LLM judges on a run", () => {
  let db: Db;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    const rows = fixtureRows();
    // Markers for the fake judge: a wrong argument on t10, a repeated call on t15.
    const marked = rows.map((row) =>
      row.request_id === "t10"
        ? { ...row, tool_calls: [{ name: "fetch", arguments: { url: "WRONG" } }] }
        : row.request_id === "t15"
          ? { ...row, tool_calls: Array.from({ length: 6 }, () => ({ name: "poll", arguments: { id: "REPEAT" } })) }
          : row,
    );
    ({ db, server, datasetId, close } = await openServedDataset(marked, {
      responder: (body, ctx) => fakeAgentJudgeResponder(body, ctx) ?? fakeDeepEvalCallsResponder(body, ctx),
    }));
  });
  afterAll(async () => close());

  it("makes the upstream's calls per row, as many as the estimate said", async () => {
    const runId = await createRun(db, {
      datasetId,
      metrics: METRICS,
      judge: { provider: "openai", model: "judge-model" },
      concurrency: 4,
    });
    const estimate = await estimateRunSpending(db, runId, {
      gEvalStepWriters: new Set(),
      judgeModel: "judge-model",
      generationModel: null,
      chunkMode: "batched",
      heuristic: false,
      prices: {},
    });
    const before = server.requests.length;
    const run = await readRun(db, runId);
    const outcome = await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }));
    expect(outcome.status).toBe("completed");
    const requests = server.requests.slice(before);
    const bySchema = (name: string) => requests.filter((r) => r.body.response_format.json_schema.name === name).length;

    const items = (await judgmentsWithRequestIds(db, runId, datasetId)).map((item) => ({
      ...item,
      row: { requestId: item.requestId },
    }));
    const judged = (metric: string) => items.filter((item) => item.metric === metric && item.status === "done");
    // Rows with tool calls known: every row but t21 (neither trace nor tool_calls). Step efficiency needs a trace: t18–t20.
    expect(judged(METRICS[0]).length).toBe(21);
    expect(
      judged(METRICS[4])
        .map((item) => item.row.requestId)
        .sort(),
    ).toEqual(["t18", "t19", "t20"]);
    // Task completion needs a response: every row but t18–t20, whose response comes from their traces, so all 22.
    expect(judged(METRICS[3]).length).toBe(22);

    // MLflow: one call a row each.
    expect(bySchema("tool_call_correctness")).toBe(21);
    expect(bySchema("tool_call_efficiency")).toBe(21);
    // DeepEval's argument correctness: a verdicts call and a reason on each row with calls; none on the 4 rows
    // whose agent called nothing (t08, t09, t20 by their data; t21 skipped).
    const withCalls = 21 - 3;
    expect(bySchema("argument_verdicts")).toBe(withCalls);
    // Task completion: 2 calls a row; step efficiency: 2 calls a row.
    expect(bySchema("task_and_outcome")).toBe(22);
    expect(bySchema("task_verdict")).toBe(22);
    expect(bySchema("task_from_trace")).toBe(3);
    expect(bySchema("execution_efficiency")).toBe(3);
    // Argument correctness's reasons: rows that score 1 with nothing to explain ask the same reason prompt, which
    // the judge cache answers after the first; each row still names its 2 calls (0 without tool calls).
    expect(bySchema("deepeval_reason")).toBeLessThanOrEqual(withCalls);
    expect(callsNamed(items, METRICS[2])).toBe(withCalls * 2);
    expect(callsNamed(items, METRICS[3])).toBe(22 * 2);
    expect(callsNamed(items, METRICS[4])).toBe(3 * 2);
    const perMetric = Object.fromEntries(estimate.perMetric.map((entry) => [entry.metric, entry.calls]));
    expect(perMetric).toEqual({
      [METRICS[0]]: 21,
      [METRICS[1]]: 21,
      // The estimate counts the most a row can make: a verdicts call and a reason on all 21 rows with tool calls known.
      [METRICS[2]]: 42,
      [METRICS[3]]: 44,
      [METRICS[4]]: 6,
    });
    expect(requests.length).toBeLessThanOrEqual(estimate.llmCalls);

    const at = (metric: string, requestId: string) =>
      items.find((item) => item.metric === metric && item.row.requestId === requestId);
    expect(at(METRICS[0], "t10")?.rating).toBe("no");
    expect(at(METRICS[0], "t01")?.rating).toBe("yes");
    expect(at(METRICS[1], "t15")?.rating).toBe("no");
    expect(at(METRICS[2], "t10")?.score).toBe(0);
    expect(at(METRICS[2], "t08")?.score).toBe(1);
    expect(at(METRICS[4], "t19")?.score).toBe(1);
    expect(at(METRICS[4], "t21")?.status).toBe("skipped");
  });
});
