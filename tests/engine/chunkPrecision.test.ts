import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import type { Db } from "@/lib/db/client";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { precisionOf } from "@/lib/judges/chunkPrecision";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeLlmConfig, importRows, readRun, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const METRIC = "retrieval/llm_judged/chunk_relevance";

/**
 * Agent Evaluation's judge reference: precision = relevant chunks returned / all chunks returned. A row
 * whose chunks came back yes, no, no and error has no precision (not 1/3):
 * the row is an error, counted beside the value, and its judged chunks stay.
 */
describe("chunk precision over every returned chunk", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  /** While set, a single-chunk call whose chunk says FLAKY gets invalid JSON (the call and its repair both fail). */
  let flaky = true;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({
      responder: (body, ctx) => {
        const prompt = JSON.stringify(body.messages);
        if (flaky && prompt.includes("FLAKY")) return "this is { not json";
        return fakeJudgeResponder(body, ctx);
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("precisionOf has no value when any chunk has no rating", () => {
    expect(precisionOf(["yes", "no", "no", null])).toBeNull();
    expect(precisionOf(["yes", "no", "no", "no"])).toBe(0.25);
    expect(precisionOf([])).toBeNull();
  });

  it("errors the row (naming the chunk) instead of 1/3, keeps the judged chunks, counts the error, and re-judges it", async () => {
    const datasetId = await importRows(db, [
      {
        request_id: "mixed",
        request: "How do I rotate keys?",
        response: "Use the console.",
        retrieved_context: [
          { content: "Rotate keys in the console.", doc_uri: "a" },
          { content: "Billing NO:chunk_relevance_verdict", doc_uri: "b" },
          { content: "Holidays NO:chunk_relevance_verdict", doc_uri: "c" },
          { content: "Key rotation FLAKY", doc_uri: "d" },
        ],
      },
      {
        request_id: "clean",
        request: "How do I rotate keys?",
        response: "Use the console.",
        retrieved_context: [{ content: "Rotate keys here.", doc_uri: "a" }],
      },
    ]);
    const { runId, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["chunk_relevance"],
        judge: { provider: "openai", model: "judge-precision" },
        chunkMode: "per_chunk",
        concurrency: 2,
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");

    const mixed = await db.judgmentItem.findFirstOrThrow({
      where: { runId, metric: METRIC, row: { requestId: "mixed" } },
      include: { chunks: { orderBy: { position: "asc" } } },
    });
    expect(mixed.status).toBe("error");
    expect(mixed.score).toBeNull();
    expect(mixed.passed).toBeNull();
    expect(mixed.errorMessage).toMatch(
      /^precision not computed: chunk 4 of 4 was not judged \(judge answer for "chunk_relevance_verdict" was malformed/,
    );
    expect(mixed.chunks.map((c) => c.rating)).toEqual(["yes", "no", "no", null]);
    expect(mixed.chunks[3].errorMessage).toMatch(/malformed even after a repair attempt/);

    const aggregate = (await getRunAggregates(db, runId)).find((a) => a.metric === METRIC)!;
    expect(aggregate).toMatchObject({ name: `${METRIC}/precision/average`, value: 1, denominator: 1, errors: 1 });

    // Re-judging errored rows works on such a row: only the failed chunk is asked again (the others are cached).
    flaky = false;
    const before = server.stats.totalRequests;
    expect(await resetJudgmentsForRejudge(db, runId, "errored")).toBe(1);
    const run = await readRun(db, runId);
    expect((await runEvaluation(run, createEngineDeps(db, run, { llmConfig: fakeLlmConfig(server.url) }))).status).toBe(
      "completed",
    );
    expect(server.stats.totalRequests - before).toBe(1);
    const rejudged = await db.judgmentItem.findFirstOrThrow({
      where: { id: mixed.id },
      include: { chunks: { orderBy: { position: "asc" } } },
    });
    expect(rejudged).toMatchObject({ status: "done", score: 0.5, errorMessage: null });
    expect(rejudged.chunks.map((c) => c.rating)).toEqual(["yes", "no", "no", "yes"]);
    const after = (await getRunAggregates(db, runId)).find((a) => a.metric === METRIC)!;
    expect(after).toMatchObject({ value: 0.75, denominator: 2, errors: 0 });
  });
});
