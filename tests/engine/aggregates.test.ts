import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import type { Db } from "@/lib/db/client";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importRows, runToCompletion } from "../support/engineKit";
import { fenced } from "../support/fenced";
import { createTempDb } from "../support/tempDb";

const chunk = (doc: string, text = `About ${doc}.`) => ({ content: text, doc_uri: doc });

/** Eight rows whose verdicts the fake judge takes from markers; the expected aggregates below are computed by hand. */
const ROWS = [
  {
    request_id: "r1",
    request: "q1",
    response: "fine",
    expected_response: "fine",
    retrieved_context: [chunk("d1"), chunk("d2", "IRRELEVANT text")],
    expected_retrieved_context: [{ doc_uri: "d1" }],
  },
  {
    request_id: "r2",
    request: "q2",
    response: "NO:correctness_verdict",
    expected_response: "x",
    retrieved_context: [chunk("d3")],
    expected_retrieved_context: [{ doc_uri: "d9" }],
  },
  {
    request_id: "r3",
    request: "q3",
    response: "fine",
    expected_facts: ["fact a", "fact b MISSING"],
    retrieved_context: [chunk("d4")],
  },
  { request_id: "r4", request: "q4", response: "fine", expected_facts: ["fact a"], retrieved_context: [chunk("d5")] },
  {
    request_id: "r5",
    request: "q5",
    response: "GARBAGE:relevance_verdict",
    expected_response: "x",
    retrieved_context: [chunk("d6")],
  },
  { request_id: "r6", request: "q6", response: "fine", retrieved_context: [chunk("d7"), chunk("d8"), chunk("d9")] },
  { request_id: "r7", request: "q7", response: "fine", expected_response: "x" },
  {
    request_id: "r8",
    request: "q8",
    response: "NO:safety_verdict",
    expected_response: "x",
    retrieved_context: [chunk("d10")],
  },
];

describe("run aggregates through the fake LLM server", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer;
  let runId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
    const datasetId = await importRows(db, ROWS);
    ({ runId } = await runToCompletion(
      db,
      { datasetId, metrics: BUILT_IN_METRICS, judge: { provider: "openai", model: "judge-model" }, concurrency: 4 },
      server.url,
    ));
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it("names every aggregate as Agent Evaluation does and matches hand-computed values", async () => {
    const aggregates = Object.fromEntries((await getRunAggregates(db, runId)).map((a) => [a.name, a]));
    const value = (name: string) => aggregates[name]?.value;
    expect(value("response/llm_judged/correctness/rating/percentage")).toBeCloseTo(5 / 7, 10);
    expect(aggregates["response/llm_judged/correctness/rating/percentage"]).toMatchObject({
      numerator: 5,
      denominator: 7,
      skipped: 1,
      errors: 0,
    });
    expect(value("response/llm_judged/safety/rating/average")).toBeCloseTo(7 / 8, 10);
    expect(value("response/llm_judged/groundedness/rating/percentage")).toBe(1);
    expect(value("retrieval/llm_judged/chunk_relevance/precision/average")).toBeCloseTo((0.5 + 6) / 7, 10);
    expect(value("retrieval/llm_judged/context_sufficiency/rating/percentage")).toBe(1);
    expect(aggregates["retrieval/llm_judged/context_sufficiency/rating/percentage"].denominator).toBe(6);
    expect(value("retrieval/ground_truth/document_recall/average")).toBe(0.5);
  });

  it("keeps an errored judgment out of the denominator and counts it beside the value", async () => {
    const relevance = (await getRunAggregates(db, runId)).find(
      (a) => a.metric === "response/llm_judged/relevance_to_query",
    )!;
    expect(relevance).toMatchObject({
      name: "response/llm_judged/relevance_to_query/rating/percentage",
      value: 1,
      numerator: 7,
      denominator: 7,
      errors: 1,
    });
    const errored = await db.judgmentItem.findFirstOrThrow({
      where: { runId, metric: "response/llm_judged/relevance_to_query", status: "error" },
      include: { row: true },
    });
    expect(errored.row.requestId).toBe("r5");
    expect(errored.rating).toBeNull();
    expect(errored.errorMessage).toMatch(/relevance_verdict/);
  });

  it("stores per-chunk verdicts as rows, with provenance on every judgment", async () => {
    const r1 = await db.judgmentItem.findFirstOrThrow({
      where: { runId, metric: "retrieval/llm_judged/chunk_relevance", row: { requestId: "r1" } },
      include: { chunks: { orderBy: { position: "asc" } } },
    });
    expect(r1.chunks.map((c) => c.rating)).toEqual(["yes", "no"]);
    expect(r1.score).toBe(0.5);
    expect(r1).toMatchObject({
      judgeProvider: "openai",
      judgeModel: "judge-model",
      promptVersion: "chunk_relevance.batched/v4",
    });
    expect(r1.promptHash).toMatch(/^[0-9a-f]{64}$/);
    expect(r1.inputTokens).toBeGreaterThan(0);
  });

  it("makes exactly one LLM call per LLM-judged metric per row in batched mode", async () => {
    const llmJudged = await db.judgmentItem.count({
      where: {
        runId,
        metric: { startsWith: "" },
        NOT: [{ metric: { startsWith: "agent/" } }, { metric: "retrieval/ground_truth/document_recall" }],
        status: { in: ["done"] },
      },
    });
    const garbageCalls = server.stats.requests.filter(
      (r) =>
        r.body.response_format?.json_schema?.name === "relevance_verdict" &&
        JSON.stringify(r.body.messages).includes("GARBAGE"),
    ).length;
    expect(server.stats.totalRequests - garbageCalls).toBe(llmJudged);
  });

  it("fences the judged content in the prompt", async () => {
    const prompt = server.stats.requests.find((r) => JSON.stringify(r.body.messages).includes("NO:safety_verdict"))!
      .body.messages[1].content as string;
    expect(prompt).toContain(fenced("response", "NO:safety_verdict"));
  });
});
