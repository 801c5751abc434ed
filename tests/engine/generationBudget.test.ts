import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getRunSpending, type RunBudget } from "@/lib/db/runs/runBudget";
import { reopenRun } from "@/lib/db/runs/runLifecycle";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import type { RunConfigInput } from "@/lib/engine/runConfig";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { fakeLlmConfig, importRows, readRun } from "../support/engineKit";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type ChatBody, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { createTempDb } from "../support/tempDb";

const schemaOf = (body: ChatBody): string => body.response_format?.json_schema?.name ?? "";
/** $1 per million tokens in and out: every call the fake server answers costs something. */
const PRICES = JSON.stringify({ "judge-money": { input: 1, output: 1 }, "gen-money": { input: 1, output: 1 } });

function callBudget(calls: number): RunBudget {
  return { calls, tokens: null, usd: null };
}

/** Creates a run with a budget and executes it once against the fake server, counting the requests it sent. */
async function runOnce(db: Db, server: FakeOpenAIServer, config: RunConfigInput, budget: RunBudget) {
  const runId = await createRun(db, config, { budget });
  const before = server.stats.totalRequests;
  const run = await readRun(db, runId);
  const deps = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url, { ASSAY_LLM_PRICES: PRICES }) });
  const outcome = await runEvaluation(run, deps);
  return { runId, outcome, requests: server.stats.totalRequests - before };
}

describe("generation calls count in the run's budget", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
    datasetId = await importRows(
      db,
      Array.from({ length: 6 }, (_, i) => ({
        request_id: `g${i}`,
        request: `Question ${i}: how long are deleted objects kept?`,
        expected_response: "30 days.",
      })),
    );
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("a generating run with a call budget of 4 sends at most 4 requests in all, pauses, and resumes after a raise", async () => {
    const config: RunConfigInput = {
      datasetId,
      metrics: ["correctness"],
      judge: { provider: "openai", model: "judge-money" },
      generation: { model: "gen-money" },
      concurrency: 2,
    };
    const { runId, outcome, requests } = await runOnce(db, server, config, callBudget(4));
    // 6 rows to generate: the budget stops generation itself, not only the judging after it.
    expect(requests).toBeLessThanOrEqual(4);
    expect(requests).toBe(4);
    expect(outcome.status).toBe("paused");
    expect(outcome.pause?.message).toMatch(/budget of 4 LLM calls reached \(4 made\)/);
    expect(await db.generation.count({ where: { runId, status: "pending" } })).toBe(2);
    expect((await getRunSpending(db, runId)).calls).toBe(4);

    await db.run.update({ where: { id: runId }, data: { budgetCalls: null } });
    expect(await reopenRun(db, runId)).toBe(true);
    const run = await readRun(db, runId);
    const resumed = await runEvaluation(
      run,
      createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url, { ASSAY_LLM_PRICES: PRICES }) }),
    );
    expect(resumed.status).toBe("completed");
    // Every row generated once and judged once: 6 + 6 requests, the first 4 included.
    expect((await getRunSpending(db, runId)).calls).toBe(12);
    expect(await db.generation.count({ where: { runId, status: "done" } })).toBe(6);
  });

  it("a generating run's recorded cost includes its generation calls, priced with ASSAY_LLM_PRICES", async () => {
    const config: RunConfigInput = {
      datasetId,
      metrics: ["correctness"],
      judge: { provider: "openai", model: "judge-money" },
      generation: { model: "gen-money" },
      concurrency: 2,
    };
    const { runId, outcome } = await runOnce(db, server, config, callBudget(1000));
    expect(outcome.status).toBe("completed");
    const generations = await db.generation.findMany({ where: { runId } });
    expect(generations.every((g) => g.attempts === 1)).toBe(true);
    const generationUsd = generations.reduce(
      (sum, g) => sum + ((g.inputTokenCount ?? 0) + (g.outputTokenCount ?? 0)) / 1_000_000,
      0,
    );
    expect(generationUsd).toBeGreaterThan(0);
    for (const g of generations)
      expect(g.costUsd).toBeCloseTo(((g.inputTokenCount ?? 0) + (g.outputTokenCount ?? 0)) / 1_000_000, 12);
    const judged = await db.judgmentItem.aggregate({ where: { runId }, _sum: { costUsd: true } });
    expect((await getRunSpending(db, runId)).usd).toBeCloseTo((judged._sum.costUsd ?? 0) + generationUsd, 12);
  });

  it("a cost budget stops generation once the generation calls have spent it", async () => {
    const config: RunConfigInput = {
      datasetId,
      metrics: ["correctness"],
      judge: { provider: "openai", model: "judge-money" },
      generation: { model: "gen-money" },
      concurrency: 1,
    };
    // One generation call costs a few dozen millionths of a dollar here: this budget is spent after the first.
    const { runId, outcome, requests } = await runOnce(db, server, config, {
      calls: null,
      tokens: null,
      usd: 0.000001,
    });
    expect(outcome.status).toBe("paused");
    expect(requests).toBe(1);
    expect(await db.generation.count({ where: { runId, status: "done" } })).toBe(1);
  });
});

describe("a malformed batched chunk answer's per-chunk fallback stays within the call budget", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({
      responder: (body, ctx) => {
        const answer = fakeJudgeResponder(body, ctx) as string;
        if (!schemaOf(body).endsWith("_verdicts")) return answer;
        // Every verdict numbered 1: wrong chunk numbers for any row of two or more chunks, after the repair too.
        const parsed = z
          .object({ verdicts: z.array(z.looseObject({ chunk_index: z.number() })) })
          .parse(JSON.parse(answer));
        return JSON.stringify({ verdicts: parsed.verdicts.map((v) => ({ ...v, chunk_index: 1 })) });
      },
    });
    datasetId = await importRows(
      db,
      Array.from({ length: 2 }, (_, i) => ({
        request_id: `c${i}`,
        request: `How do I rotate access key ${i}?`,
        response: "In the console.",
        retrieved_context: Array.from({ length: 4 }, (_, k) => ({
          content: `Chunk ${k} about keys.`,
          doc_uri: `d${k}`,
        })),
      })),
    );
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  // Two rows of 4 chunks, judged two at a time (the engine's lanes): each row's batched call and its repair fit a
  // budget of 5, but neither row's 4 per-chunk calls do. Without the check this run sent 12 requests.
  it("with a budget of 5 calls: each row's batched call and its repair are made, the per-chunk calls are not, and the rows say the budget stopped them", async () => {
    const { runId, outcome, requests } = await runOnce(
      db,
      server,
      {
        datasetId,
        metrics: ["chunk_relevance"],
        judge: { provider: "openai", model: "judge-money" },
        concurrency: 1,
        chunkMode: "batched",
      },
      callBudget(5),
    );
    expect(requests).toBeLessThanOrEqual(5);
    expect(requests).toBe(4);
    expect((await getRunSpending(db, runId)).calls).toBe(4);
    const errored = await db.judgmentItem.findMany({ where: { runId, status: "error" } });
    expect(errored).toHaveLength(2);
    for (const item of errored)
      expect(item.errorMessage).toMatch(
        /judging each chunk in its own call \(4 more LLM calls\) would pass the run's budget, so the chunks were not judged/,
      );
    // Errors, not pending work: re-judging the errored judgments after a raise asks again.
    expect(outcome.status).toBe("completed");
  });

  it("with room for the fallback, it is made: 1 batched + 1 repair + 4 per-chunk calls for each row", async () => {
    const { runId, requests } = await runOnce(
      db,
      server,
      {
        datasetId,
        metrics: ["chunk_relevance"],
        judge: { provider: "openai", model: "judge-money-roomy" },
        concurrency: 1,
        chunkMode: "batched",
      },
      callBudget(12),
    );
    expect(requests).toBe(12);
    const done = await db.judgmentItem.findMany({ where: { runId, status: "done" } });
    expect(done.map((item) => item.attempts)).toEqual([6, 6]);
  });
});
