import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import type { Db } from "@/lib/db/client";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { importSample, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const EXPECTED_AGGREGATES = [
  "response/llm_judged/correctness/rating/percentage",
  "response/llm_judged/relevance_to_query/rating/percentage",
  "response/llm_judged/groundedness/rating/percentage",
  "response/llm_judged/safety/rating/average",
  "retrieval/llm_judged/chunk_relevance/precision/average",
  "retrieval/llm_judged/context_sufficiency/rating/percentage",
  "retrieval/ground_truth/document_recall/average",
  "agent/total_token_count/average",
  "agent/input_token_count/average",
  "agent/output_token_count/average",
  "agent/latency_seconds/average",
];

const CUSTOM = [
  {
    assessmentName: "cites_cli",
    assessmentType: "ANSWER" as const,
    instructions: "The response must mention the nwcli command line tool.",
  },
  {
    assessmentName: "official_docs",
    assessmentType: "RETRIEVAL" as const,
    instructions: "The chunk must come from official product documentation, not a community answer.",
  },
];

describe.each([
  ["the offline heuristic judge", "heuristic"],
  ["the fake LLM server", "openai"],
] as const)("every judge on the sample dataset through %s", (_label, provider) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let server: FakeOpenAIServer | null = null;
  let runId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    if (provider === "openai") server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
    const datasetId = await importSample(db);
    const judge = provider === "heuristic" ? { provider, model: HEURISTIC_MODEL } : { provider, model: "judge-model" };
    ({ runId } = await runToCompletion(
      db,
      { datasetId, metrics: BUILT_IN_METRICS, customJudges: CUSTOM, judge, concurrency: 8 },
      server?.url ?? null,
    ));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await cleanup();
  });

  it("computes every Agent Evaluation aggregate, plus the custom judges', with nothing left pending", async () => {
    const aggregates = await getRunAggregates(db, runId);
    const names = aggregates.map((a) => a.name);
    for (const name of [
      ...EXPECTED_AGGREGATES,
      "response/llm_judged/cites_cli/rating/percentage",
      "retrieval/llm_judged/official_docs/precision/average",
    ]) {
      expect(names).toContain(name);
    }
    for (const aggregate of aggregates) {
      expect(aggregate.pending).toBe(0);
      expect(aggregate.value, aggregate.name).not.toBeNull();
      if (aggregate.kind === "percentage") {
        expect(aggregate.value!).toBeGreaterThanOrEqual(0);
        expect(aggregate.value!).toBeLessThanOrEqual(1);
      }
    }
    // The six rows with traces carry agent metrics; the 44 others are skipped with a reason.
    const latency = aggregates.find((a) => a.metric === "agent/latency_seconds")!;
    expect(latency).toMatchObject({ denominator: 6, skipped: 44 });
    const skip = await db.judgmentItem.findFirstOrThrow({
      where: { runId, metric: "agent/latency_seconds", status: "skipped" },
    });
    expect(skip.skipReason).toBe("needs a trace with span timings");
  });

  it("labels every judged result with its provider and model", async () => {
    const providers = await db.judgmentItem.groupBy({
      by: ["judgeProvider", "judgeModel"],
      where: { runId, status: { in: ["done", "error"] } },
      _count: { _all: true },
    });
    const expected = provider === "heuristic" ? ["deterministic", "heuristic"] : ["deterministic", "openai"];
    expect(providers.map((p) => p.judgeProvider).sort()).toEqual(expected);
  });

  it("records a per-chunk verdict for every retrieved chunk of every judged row", async () => {
    const judged = await db.judgmentItem.findMany({
      where: { runId, metric: "retrieval/llm_judged/chunk_relevance", status: "done" },
      include: { chunks: true, row: { select: { retrievedChunkCount: true } } },
    });
    expect(judged.length).toBeGreaterThan(40);
    for (const item of judged) {
      expect(item.chunks).toHaveLength(item.row.retrievedChunkCount);
      expect(item.score).toBeCloseTo(item.chunks.filter((c) => c.rating === "yes").length / item.chunks.length, 10);
    }
  });
});
