import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { getGEvalSteps } from "@/lib/db/judgments/gEvalQueries";
import type { Db } from "@/lib/db/client";
import { createRun, RunConfigError } from "@/lib/engine/createRun";
import { type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { readRun, runToCompletion } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";

// A run with a custom G-Eval judge, end to end: config → plan → the engine's deps wrap the LLM
// judge with G-Eval → the fake server's steps and scores → stored results and aggregates.

const COHERENCE = "response/llm_judged/g_eval/coherence";
const STEPS = ["Read the actual output.", "Check each sentence follows.", "Score 1-5."];
const responder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") return JSON.stringify({ steps: STEPS });
  if (name === "g_eval_score") {
    const prompt = (body.messages as { content: string }[]).map((m) => m.content).join("\n");
    return JSON.stringify({ score: prompt.includes("RAMBLING") ? 2 : 5, reason: "judged by the fake" });
  }
  return undefined;
};

const definition = {
  name: "coherence",
  criteria: "Coherence - the collective quality of all sentences in the actual output.",
  evaluationParams: ["input", "actual_output"] as ("input" | "actual_output")[],
  threshold: 0.6,
};

describe("a run with a custom G-Eval judge", () => {
  let db: Db;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, server, datasetId, close } = await openServedDataset(
      [
        { request_id: "a", request: "Q1?", response: "A clear answer. It follows." },
        { request_id: "b", request: "Q2?", response: "RAMBLING words here. And there." },
        { request_id: "c", request: "Q3?", response: "Another clear answer." },
        { request_id: "d", request: "Q4?" },
      ],
      { responder },
    ));
  });
  afterAll(async () => close());

  it("plans it like a custom judge, asks for the steps once, scores each row and aggregates it as a score", async () => {
    const { runId, outcome } = await runToCompletion(
      db,
      { datasetId, gEvalJudges: [definition], judge: { provider: "openai", model: "fake-judge" } },
      server.url,
    );
    expect(outcome).toMatchObject({ status: "completed" });
    const run = await readRun(db, runId);
    expect(run.config.metrics).toEqual([COHERENCE]);
    // Stored with the scale it defaults to, so a later change of default cannot change an old run.
    expect(run.config.gEvalJudges).toEqual([{ ...definition, scale: "1-5" }]);
    expect(run.config.thresholds[COHERENCE]).toBe(0.6);

    const calls = (name: string) => server.requests.filter((r) => r.body.response_format?.json_schema?.name === name);
    expect(calls("g_eval_steps")).toHaveLength(1);
    expect(calls("g_eval_score")).toHaveLength(3);

    const items = await db.judgmentItem.findMany({
      where: { runId },
      include: { row: true },
      orderBy: { row: { rowNumber: "asc" } },
    });
    expect(items.map((i) => [i.status, i.score, i.passed])).toEqual([
      ["done", 1, true],
      ["done", 0.25, false],
      ["done", 1, true],
      ["skipped", null, null],
    ]);
    expect(items[3].skipReason).toMatch(/response/);
    expect(items[0].promptVersion).toMatch(/^g_eval\.score\/v3 steps:[0-9a-f]{16}$/);
    expect(items[0].details).toContain("Check each sentence follows.");
    // The run page shows the steps and their hash, read back from the stored results.
    const shown = await getGEvalSteps(db, runId, COHERENCE);
    expect(shown?.steps).toEqual(STEPS);
    expect(items[0].promptVersion).toContain(`steps:${shown?.stepsHash}`);

    const [aggregate] = await getRunAggregates(db, runId, [COHERENCE]);
    expect(aggregate.name).toBe(`${COHERENCE}/score/average`);
    expect(aggregate.value).toBeCloseTo(0.75, 12);
    expect(aggregate.success).toMatchObject({ name: `${COHERENCE}/success/percentage`, numerator: 2, denominator: 3 });

    // A second run with the same criteria and model reuses the stored steps and answers: 0 calls.
    server.requests.length = 0;
    await runToCompletion(
      db,
      { datasetId, gEvalJudges: [definition], judge: { provider: "openai", model: "fake-judge" } },
      server.url,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("plans G-Eval skipped, with why, on the offline judge, and refuses duplicate names", async () => {
    const runId = await createRun(db, {
      datasetId,
      gEvalJudges: [definition],
      judge: { provider: "heuristic", model: "heuristic" },
    });
    const items = await db.judgmentItem.findMany({ where: { runId } });
    expect(items.every((i) => i.status === "skipped" && /needs an LLM judge/.test(i.skipReason ?? ""))).toBe(true);
    await expect(
      createRun(db, { datasetId, gEvalJudges: [definition, definition], judge: { provider: "openai", model: "m" } }),
    ).rejects.toThrow(RunConfigError);
  });
});
