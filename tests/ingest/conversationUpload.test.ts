import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getInputCoverage } from "@/lib/db/datasets/datasetQueries";
import { loadRowsForWork } from "@/lib/db/work/workRows";
import { toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { sessionTurnTrace } from "../support/agentRuns";
import { ingestIntoDb } from "./ingestIntoTempDb";

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

describe("conversations from an upload", () => {
  it("groups a session's traces, anchors it on its first turn by request time, and reads its turns in order", async () => {
    const rows = [
      // Listed last-first: the request times order them.
      {
        request_id: "s1-3",
        request: "And in euros?",
        trace: sessionTurnTrace("s1", "2026-11-01T10:02:00Z", "About 37 EUR."),
      },
      {
        request_id: "s1-1",
        request: "What did I pay in July?",
        trace: sessionTurnTrace("s1", "2026-11-01T10:00:00Z", "42 USD."),
      },
      {
        request_id: "s1-2",
        request: "Was VAT included?",
        trace: sessionTurnTrace("s1", "2026-11-01T10:01:00Z", "No."),
      },
      // A session given by the column, no trace: ordered by row number.
      { request_id: "s2-1", request: "Hi", response: "Hello!", session_id: "s2" },
      { request_id: "s2-2", request: "Bye", response: "Goodbye.", session_id: "s2" },
      // Earlier turns in the request, no session: a conversation of its own.
      {
        request_id: "h",
        request: {
          messages: [
            { role: "user", content: "My bucket is logs-eu." },
            { role: "assistant", content: "Noted." },
            { role: "user", content: "Which region is it in?" },
          ],
        },
        response: "eu-west-1.",
      },
      // One turn, no session: no conversation.
      { request_id: "single", request: "Ping?", response: "Pong." },
    ];
    const { result, storedRows } = await ingestIntoDb(db, "sessions.jsonl", toJsonl(rows), "strict");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const stored = await db.datasetRow.findMany({
      where: { datasetId: result.datasetId },
      select: { id: true, requestId: true, sessionId: true, conversationAnchor: true, conversationTurns: true },
      orderBy: { rowNumber: "asc" },
    });
    const byRequest = Object.fromEntries(stored.map((row) => [row.requestId, row]));
    expect(stored.filter((row) => row.conversationAnchor).map((row) => row.requestId)).toEqual(["s1-1", "s2-1", "h"]);
    expect([
      byRequest["s1-1"].conversationTurns,
      byRequest["s2-1"].conversationTurns,
      byRequest.h.conversationTurns,
    ]).toEqual([6, 4, 4]);
    expect(byRequest["s1-2"]).toMatchObject({ sessionId: "s1", conversationAnchor: false, conversationTurns: null });

    // The dataset's kept coverage counts the anchors as the rows the conversation judges can run on.
    const coverage = await getInputCoverage(db, result.datasetId);
    expect(coverage.inputs.conversation).toBe(3);
    expect(coverage.metrics["conversation/llm_judged/conversation_completeness"]).toBe(3);

    const loaded = await loadRowsForWork(db, "no-run", [byRequest["s1-1"].id, byRequest.h.id, byRequest.single.id], {
      withConversation: [byRequest["s1-1"].id, byRequest.h.id],
    });
    const turns = (id: string) => loaded.get(id)?.conversation?.map((turn) => `${turn.role}: ${turn.content}`);
    expect(turns(byRequest["s1-1"].id)).toEqual([
      "user: What did I pay in July?",
      "assistant: 42 USD.",
      "user: Was VAT included?",
      "assistant: No.",
      "user: And in euros?",
      "assistant: About 37 EUR.",
    ]);
    expect(turns(byRequest.h.id)).toEqual([
      "user: My bucket is logs-eu.",
      "assistant: Noted.",
      "user: Which region is it in?",
      "assistant: eu-west-1.",
    ]);
    expect(loaded.get(byRequest.single.id)?.conversation).toBeNull();
    expect(storedRows).toHaveLength(7);
  });
});
