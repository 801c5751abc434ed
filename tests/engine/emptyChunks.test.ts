import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getInputCoverage } from "@/lib/db/datasets/datasetQueries";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { metricAvailability } from "@/lib/metrics/availability";
import { WHITESPACE } from "@/lib/contract/rowInputs";
import { requirementsOf, skipReason } from "@/lib/metrics/rowEligibility";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { runToCompletion } from "../support/engineKit";
import { openServedDataset } from "../support/servedDataset";

const CONTENT_JUDGES = [
  "retrieval/llm_judged/chunk_relevance",
  "response/llm_judged/groundedness",
  "retrieval/llm_judged/context_sufficiency",
  "retrieval/llm_judged/on_topic",
];

/**
 * A retrieved chunk without content (a trace chunk with only a doc_uri, or
 * whitespace) is never sent to a judge as an empty chunk to rate "no": the
 * judges that read chunk content skip the row with the reason, with a model
 * judge and the offline judge alike. document_recall still works from doc_uri.
 */
describe("rows with a retrieved chunk that has no content", () => {
  let db: Db;
  let close: () => Promise<void>;
  let server: FakeOpenAIServer;
  let datasetId: string;

  beforeAll(async () => {
    const base = { response: "Rotate keys in the console.", expected_response: "In the console." };
    ({ db, server, datasetId, close } = await openServedDataset(
      [
        {
          ...base,
          request_id: "doc-uri-only",
          request: "PARTIAL-ROW how do I rotate keys?",
          retrieved_context: [
            { content: "Rotate keys in the console.", doc_uri: "a" },
            { doc_uri: "b" },
            { content: "Keys rotate yearly.", doc_uri: "c" },
          ],
          expected_retrieved_context: [{ doc_uri: "a" }, { doc_uri: "b" }],
        },
        {
          ...base,
          request_id: "blank",
          request: "BLANK-ROW how do I rotate keys?",
          retrieved_context: [
            { content: "Rotate keys in the console.", doc_uri: "a" },
            { content: " \u3000\u00a0\n", doc_uri: "b" },
          ],
        },
        {
          ...base,
          request_id: "full",
          request: "FULL-ROW how do I rotate keys?",
          retrieved_context: [{ content: "Rotate keys in the console.", doc_uri: "a" }],
        },
      ],
      { responder: fakeJudgeResponder },
    ));
  });
  afterAll(async () => close());

  const config = (judge: { provider: "openai" | "heuristic"; model: string }) => ({
    datasetId,
    judge,
    concurrency: 2,
    metrics: ["chunk_relevance", "groundedness", "context_sufficiency", "document_recall", "relevance_to_query"],
    customJudges: [
      {
        assessmentName: "on_topic",
        assessmentType: "RETRIEVAL" as const,
        instructions: "The chunk must mention rotating access keys.",
      },
    ],
  });

  async function itemsByRow(runId: string) {
    const items = await db.judgmentItem.findMany({
      where: { runId },
      include: { row: { select: { requestId: true } } },
    });
    return (requestId: string, metric: string) =>
      items.find((i) => i.row.requestId === requestId && i.metric === metric)!;
  }

  for (const judge of [
    { provider: "openai" as const, model: "judge-empty" },
    { provider: "heuristic" as const, model: HEURISTIC_MODEL },
  ]) {
    it(`skips the content judges with the chunk's number (${judge.provider} judge), judges the rest`, async () => {
      const before = server.stats.requests.length;
      const { runId, outcome } = await runToCompletion(db, config(judge), server.url);
      expect(outcome.status).toBe("completed");
      const item = await itemsByRow(runId);
      for (const metric of CONTENT_JUDGES) {
        expect(item("doc-uri-only", metric)).toMatchObject({
          status: "skipped",
          skipReason: "retrieved chunk 2 has no content",
          rating: null,
          score: null,
        });
        expect(item("blank", metric)).toMatchObject({
          status: "skipped",
          skipReason: "retrieved chunk 2 has no content",
        });
        expect(item("full", metric).status).toBe("done");
      }
      expect(item("doc-uri-only", "retrieval/ground_truth/document_recall")).toMatchObject({
        status: "done",
        score: 1,
      });
      expect(item("doc-uri-only", "response/llm_judged/relevance_to_query").status).toBe("done");
      expect(
        await db.chunkJudgment.count({ where: { runId, row: { requestId: { in: ["doc-uri-only", "blank"] } } } }),
      ).toBe(0);

      const sent = server.stats.requests.slice(before).map((r) => JSON.stringify(r.body.messages));
      expect(sent.filter((text) => text.includes("PARTIAL-ROW") || text.includes("BLANK-ROW")).length).toBe(
        judge.provider === "openai" ? 2 : 0,
      ); // relevance_to_query only
      expect(
        sent.some((text) => /<untrusted_chunk_[0-9a-f]{12}[^>]*>\\n\\n<\/untrusted_chunk_[0-9a-f]{12}>/.test(text)),
      ).toBe(false);
    });
  }

  it("names both reasons when a row also lacks another input, and agrees with trim() on what whitespace is", () => {
    const flags = {
      hasResponse: true,
      hasExpectedResponse: false,
      hasExpectedFacts: false,
      hasRetrievedContext: true,
      hasRetrievedContent: true,
      hasExpectedRetrievedContext: false,
      totalTokenCount: null,
      latencySeconds: null,
      firstEmptyRetrievedChunk: 2,
    };
    expect(skipReason(flags, requirementsOf("retrieval/llm_judged/context_sufficiency"), false)).toBe(
      "needs expected_response or expected_facts; retrieved chunk 3 has no content",
    );
    expect(skipReason(flags, requirementsOf("retrieval/ground_truth/document_recall"), false)).toBe(
      "needs expected_retrieved_context[].doc_uri",
    );
    expect(
      skipReason(
        { ...flags, firstEmptyRetrievedChunk: null },
        requirementsOf("retrieval/llm_judged/chunk_relevance"),
        false,
      ),
    ).toBeNull();
    // The planner's SQL trims exactly these characters: every one that String.prototype.trim() removes.
    const trimmed = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code)).filter(
      (ch) => ch.trim() === "",
    );
    expect([...WHITESPACE].sort()).toEqual(trimmed.sort());
  });

  it("counts such rows out of the content judges' availability", async () => {
    const availability = metricAvailability(await getInputCoverage(db, datasetId));
    const rows = (metric: string) => availability.find((a) => a.metric.name === metric)!.rows;
    expect(rows("retrieval/llm_judged/chunk_relevance")).toBe(1);
    expect(rows("response/llm_judged/groundedness")).toBe(1);
    expect(rows("retrieval/llm_judged/context_sufficiency")).toBe(1);
    expect(rows("retrieval/ground_truth/document_recall")).toBe(1);
    expect(rows("response/llm_judged/relevance_to_query")).toBe(3);
  });
});
