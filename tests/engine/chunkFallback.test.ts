import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type ChatBody, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const schemaOf = (body: ChatBody): string => body.response_format?.json_schema?.name ?? "";
const promptTokens = (body: ChatBody) =>
  Math.ceil((body.messages as { content: string }[]).reduce((sum, m) => sum + m.content.length, 0) / 4);

/**
 * The batched call for a row's chunks answers with the wrong chunk numbers,
 * and again after the repair attempt: the row falls back to one call per
 * chunk instead of erroring every chunk. Counted on the fake server.
 */
describe("malformed batched chunk answers fall back to one call per chunk", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  /** Completion tokens of every answer, by request index, as the fake server bills them (4 characters a token). */
  const completionTokens = new Map<number, number>();

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({
      responder: (body, ctx) => {
        let answer = fakeJudgeResponder(body, ctx) as string;
        if (schemaOf(body).endsWith("_verdicts")) {
          // Every verdict numbered 1: wrong chunk numbers for any row of two or more chunks.
          const parsed = z
            .object({ verdicts: z.array(z.looseObject({ chunk_index: z.number() })) })
            .parse(JSON.parse(answer));
          answer = JSON.stringify({ verdicts: parsed.verdicts.map((v) => ({ ...v, chunk_index: 1 })) });
        }
        completionTokens.set(ctx.requestIndex, Math.ceil(answer.length / 4));
        return answer;
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("for chunk_relevance and a custom RETRIEVAL judge: 1 batched + 1 repair + 1 per chunk, ratings, precision, attempts and tokens over all calls", async () => {
    const datasetId = await importRows(db, [
      {
        request_id: "r1",
        request: "How do I rotate an access key?",
        response: "In the console.",
        retrieved_context: [
          { content: "Rotate access keys under Security.", doc_uri: "a" },
          { content: "Billing cycles NO:chunk_relevance_verdict NO:custom_retrieval_verdict", doc_uri: "b" },
          { content: "Keys can be rotated with the CLI.", doc_uri: "c" },
        ],
      },
    ]);
    const { runId, outcome } = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["chunk_relevance"],
        judge: { provider: "openai", model: "judge-fallback" },
        concurrency: 2,
        customJudges: [
          {
            assessmentName: "mentions_keys",
            assessmentType: "RETRIEVAL",
            instructions: "Does the chunk talk about access keys?",
          },
        ],
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");

    for (const [metric, batchedSchema, singleSchema, singleVersion, batchedVersion] of [
      [
        "retrieval/llm_judged/chunk_relevance",
        "chunk_relevance_verdicts",
        "chunk_relevance_verdict",
        "chunk_relevance.single/v4",
        "chunk_relevance.batched/v4",
      ],
      [
        "retrieval/llm_judged/mentions_keys",
        "custom_retrieval_verdicts",
        "custom_retrieval_verdict",
        "custom.retrieval.single/v3",
        "custom.retrieval/v4",
      ],
    ]) {
      const requests = server.requests.filter((r) => [batchedSchema, singleSchema].includes(schemaOf(r.body)));
      // Counted, not assumed: the batched question, its one repair, then one call per chunk.
      expect(requests.map((r) => schemaOf(r.body))).toEqual([
        batchedSchema,
        batchedSchema,
        singleSchema,
        singleSchema,
        singleSchema,
      ]);
      expect(requests[1].body.messages.at(-1).content).toMatch(
        /^Your previous answer was rejected: .*chunk_index 1 to 3/,
      );

      const item = await db.judgmentItem.findFirstOrThrow({
        where: { runId, metric },
        include: { chunks: { orderBy: { position: "asc" } } },
      });
      expect(item.chunks.map((c) => c.rating)).toEqual(["yes", "no", "yes"]);
      expect(item.chunks.every((c) => c.errorMessage === null)).toBe(true);
      expect(item).toMatchObject({ status: "done", score: 2 / 3, errorMessage: null, attempts: 5, cacheHit: false });
      expect(item.promptVersion).toBe(`${singleVersion} (fallback from ${batchedVersion})`);
      expect(item.rationale).toMatch(
        /batched answer for all 3 chunks was malformed even after a repair attempt, so each chunk was judged in its own call/,
      );
      expect(item.inputTokens).toBe(requests.reduce((sum, r) => sum + promptTokens(r.body), 0));
      expect(item.outputTokens).toBe(requests.reduce((sum, r) => sum + completionTokens.get(r.index)!, 0));
    }
    expect(server.stats.totalRequests).toBe(10);

    // A re-run asks nothing: the per-chunk answers are cached, and so is the fact that this row's batch fell back.
    const again = await runToCompletion(
      db,
      {
        datasetId,
        metrics: ["chunk_relevance"],
        judge: { provider: "openai", model: "judge-fallback" },
        concurrency: 2,
        customJudges: [
          {
            assessmentName: "mentions_keys",
            assessmentType: "RETRIEVAL",
            instructions: "Does the chunk talk about access keys?",
          },
        ],
      },
      server.url,
    );
    expect(server.stats.totalRequests).toBe(10);
    const cached = await db.judgmentItem.findMany({
      where: { runId: again.runId },
      include: { chunks: { orderBy: { position: "asc" } } },
    });
    expect(
      cached.map((item) => [
        item.status,
        item.score,
        item.cacheHit,
        item.attempts,
        item.chunks.map((c) => c.rating).join(","),
      ]),
    ).toEqual([
      ["done", 2 / 3, true, 0, "yes,no,yes"],
      ["done", 2 / 3, true, 0, "yes,no,yes"],
    ]);
  });
});
