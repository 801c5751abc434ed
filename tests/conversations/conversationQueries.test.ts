import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { CONVERSATION_METRICS } from "@/lib/contract/conversationMetricCatalog";
import {
  MAX_SHOWN_TURNS,
  readAnchorConversationJudgments,
  readConversation,
} from "@/lib/db/datasets/conversationQueries";
import { loadRowsForWork } from "@/lib/db/work/workRows";
import { runToCompletion } from "../support/engineKit";
import { toJsonl, type EvalObject } from "../support/evalFiles";
import { fakeConversationResponder } from "../support/fakeConversationResponder";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { createTempDb } from "../support/tempDb";
import { sessionTurnTrace } from "../support/agentRuns";
import { ingestIntoDb } from "../ingest/ingestIntoTempDb";

// What the row pages read of a conversation (lib/db/datasets/conversationQueries.ts): its turns as the judges number
// them, its anchor, the bound on what a page shows, and the run's verdicts read from the anchor; on SQLite and
// PostgreSQL. The verdicts come from the real engine through the fake OpenAI server (fakeConversationResponder's
// markers: FORGETS in an answer is a lapse of knowledge retention).

let db: Db;
let cleanup: () => Promise<void>;
let server: FakeOpenAIServer;
const responder: Responder = (body, ctx) =>
  fakeConversationResponder(body, ctx) ?? fakeDeepEvalCallsResponder(body, ctx);

beforeAll(async () => {
  ({ db, cleanup } = await createTempDb());
  server = await startFakeOpenAIServer({ responder });
});
afterAll(async () => {
  await server.close();
  await cleanup();
});

const ROWS = [
  // Listed out of order: the request times order the session.
  {
    request_id: "s1-3",
    request: "And my name?",
    trace: sessionTurnTrace("s1", "2026-11-01T10:02:00Z", "FORGETS Who are you?"),
  },
  {
    request_id: "s1-1",
    request: "FACT:name=Ada I am Ada. Which plans include SSO?",
    trace: sessionTurnTrace("s1", "2026-11-01T10:00:00Z", "Business and Enterprise, Ada."),
  },
  {
    request_id: "s1-2",
    request: "What does Business cost?",
    trace: sessionTurnTrace("s1", "2026-11-01T10:01:00Z", "$20."),
  },
  // Earlier turns in the request, a system turn first (the judges count it: turn 1), no session.
  {
    request_id: "h",
    request: {
      messages: [
        { role: "system", content: "You are the Northwind billing assistant." },
        { role: "user", content: "My bucket is logs-eu." },
        { role: "assistant", content: "Noted." },
        { role: "user", content: "Which bucket is mine?" },
      ],
    },
    response: "FORGETS Which bucket do you mean?",
  },
  { request_id: "single", request: "Ping?", response: "Pong." },
];

async function upload(name: string, rows: EvalObject[]): Promise<Map<string, string>> {
  const { result } = await ingestIntoDb(db, name, toJsonl(rows), "strict");
  if (!result.ok) throw new Error(`did not import: ${JSON.stringify(result.issues.slice(0, 3))}`);
  const stored = await db.datasetRow.findMany({
    where: { datasetId: result.datasetId },
    select: { id: true, requestId: true, datasetId: true },
  });
  return new Map([...stored.map((row) => [row.requestId, row.id] as const), ["dataset", result.datasetId]]);
}

const text = (turns: { role: string; content: string }[] | undefined) =>
  turns?.map((turn) => `${turn.role}: ${turn.content}`);

describe("a row's conversation and its verdicts", () => {
  let ids: Map<string, string>;
  const id = (requestId: string) => ids.get(requestId) ?? "";
  beforeAll(async () => {
    ids = await upload("conversations.jsonl", ROWS);
  });

  it("reads a session's turns in request-time order from any of its rows, each with its row, anchored on the first", async () => {
    for (const requestId of ["s1-1", "s1-2", "s1-3"]) {
      const conversation = await readConversation(db, id(requestId));
      expect(conversation?.anchorRowId).toBe(id("s1-1"));
      expect(conversation?.sessionId).toBe("s1");
      expect(text(conversation?.turns)).toEqual([
        "user: FACT:name=Ada I am Ada. Which plans include SSO?",
        "assistant: Business and Enterprise, Ada.",
        "user: What does Business cost?",
        "assistant: $20.",
        "user: And my name?",
        "assistant: FORGETS Who are you?",
      ]);
      expect(conversation?.turns.map((turn) => turn.rowId)).toEqual(
        ["s1-1", "s1-1", "s1-2", "s1-2", "s1-3", "s1-3"].map(id),
      );
      expect(conversation?.totalTurns).toBe(6);
      // Row numbers are the file's: s1-3 came first.
      expect(Object.fromEntries(conversation?.rowNumbers ?? [])).toEqual({
        [id("s1-1")]: 2,
        [id("s1-2")]: 3,
        [id("s1-3")]: 1,
      });
    }
  });

  it("reads a request's earlier turns as a conversation of its own row, system turn included; none for a lone row", async () => {
    const conversation = await readConversation(db, id("h"));
    expect(conversation).toMatchObject({ anchorRowId: id("h"), sessionId: null, totalTurns: 5 });
    expect(text(conversation?.turns)).toEqual([
      "system: You are the Northwind billing assistant.",
      "user: My bucket is logs-eu.",
      "assistant: Noted.",
      "user: Which bucket is mine?",
      "assistant: FORGETS Which bucket do you mean?",
    ]);
    expect(new Set(conversation?.turns.map((turn) => turn.rowId))).toEqual(new Set([id("h")]));
    expect(await readConversation(db, id("single"))).toBeNull();
    expect(await readConversation(db, "no-such-row")).toBeNull();
  });

  it("gives the judges the same turns the page shows (one implementation)", async () => {
    const loaded = await loadRowsForWork(db, "no-run", [id("s1-1"), id("h")], {
      withConversation: [id("s1-1"), id("h")],
    });
    for (const requestId of ["s1-1", "h"])
      expect(loaded.get(id(requestId))?.conversation).toEqual((await readConversation(db, id(requestId)))?.turns);
  });

  it("reads the run's conversation verdicts from the anchor, their blamed turns numbered as the page numbers turns", async () => {
    const { runId, outcome } = await runToCompletion(
      db,
      {
        datasetId: id("dataset"),
        metrics: [...CONVERSATION_METRICS.map((metric) => metric.name), "agent/latency_seconds"],
        judge: { provider: "openai", model: "judge-chat" },
        concurrency: 2,
        conversation: { guidelines: ["Answer in one sentence."] },
      },
      server.url,
    );
    expect(outcome.status).toBe("completed");

    const judgments = await readAnchorConversationJudgments(db, runId, id("s1-1"));
    // The catalogue's, in its order; the run's other metric is not one of them.
    expect(judgments.map((judgment) => judgment.metric)).toEqual(CONVERSATION_METRICS.map((metric) => metric.name));
    expect(judgments.every((judgment) => judgment.status === "done")).toBe(true);
    const retention = judgments.find((judgment) => judgment.metric === "conversation/llm_judged/knowledge_retention");
    expect(retention).toMatchObject({ rating: "no", passed: false, skipReason: null, errorMessage: null });
    expect(retention?.rationale).toContain("Overall: NO");
    const blamedTurns = (judgment: (typeof judgments)[number] | undefined) =>
      judgment?.details?.groups.flatMap((group) => group.items.flatMap((item) => item.tags ?? []));
    expect(blamedTurns(retention)).toEqual(["turn 6"]);
    const deepEvalRetention = judgments.find((j) => j.metric === "conversation/deepeval/knowledge_retention");
    expect(deepEvalRetention?.score).toBeCloseTo(2 / 3);
    expect(blamedTurns(deepEvalRetention)).toContain("turn 6");
    // Turn 6 of the page's conversation is the answer that forgot.
    const session = await readConversation(db, id("s1-3"));
    expect(session?.turns[6 - 1].content).toBe("FORGETS Who are you?");

    // A later turn carries only skipped conversation verdicts: the page reads them from the anchor.
    const later = await readAnchorConversationJudgments(db, runId, id("s1-2"));
    expect(later.map((judgment) => judgment.status)).toEqual(Array(CONVERSATION_METRICS.length).fill("skipped"));

    // With a system turn first, the blamed answer is turn 5, and the page's fifth turn is that answer.
    const own = await readAnchorConversationJudgments(db, runId, id("h"));
    const ownBlamed = blamedTurns(own.find((j) => j.metric === "conversation/llm_judged/knowledge_retention"));
    expect(ownBlamed).toEqual(["turn 5"]);
    expect((await readConversation(db, id("h")))?.turns[5 - 1].content).toBe("FORGETS Which bucket do you mean?");
    // A row of no conversation skips them, as a later turn does.
    const single = await readAnchorConversationJudgments(db, runId, id("single"));
    expect(single.map((judgment) => judgment.status)).toEqual(Array(CONVERSATION_METRICS.length).fill("skipped"));
  });
});

describe("a long conversation on a page", () => {
  it(`shows the first ${MAX_SHOWN_TURNS} turns of a 260-row session and counts the rest; the judges still read all`, async () => {
    const rows = Array.from({ length: 260 }, (_, i) => ({
      request_id: `big-${i + 1}`,
      request: `question ${i + 1}`,
      // Every third turn unanswered: the count is of the turns, not twice the rows.
      ...(i % 3 === 2 ? {} : { response: `answer ${i + 1}` }),
      session_id: "big",
    }));
    const ids = await upload("big.jsonl", rows);
    const answered = rows.filter((row) => "response" in row).length;
    const conversation = await readConversation(db, ids.get("big-250") ?? "");
    expect(conversation?.anchorRowId).toBe(ids.get("big-1"));
    expect(conversation?.turns).toHaveLength(MAX_SHOWN_TURNS);
    expect(conversation?.totalTurns).toBe(260 + answered);
    expect(conversation?.turns[0]).toMatchObject({ role: "user", content: "question 1" });
    expect(conversation?.turns[MAX_SHOWN_TURNS - 1].rowId).toBe([...(conversation?.rowNumbers.keys() ?? [])].at(-1));
    // Only the rows of the turns shown are numbered for their links.
    expect(conversation?.rowNumbers.size).toBe(new Set(conversation?.turns.map((turn) => turn.rowId)).size);

    const anchor = ids.get("big-1") ?? "";
    const loaded = await loadRowsForWork(db, "no-run", [anchor], { withConversation: [anchor] });
    expect(loaded.get(anchor)?.conversation).toHaveLength(260 + answered);
  });

  it(`shows the first ${MAX_SHOWN_TURNS} turns of one request's 300 earlier turns`, async () => {
    const messages = Array.from({ length: 300 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `turn ${i + 1}`,
    }));
    const ids = await upload("long-request.jsonl", [
      { request_id: "long", request: { messages: [...messages, { role: "user", content: "last?" }] }, response: "ok" },
    ]);
    const conversation = await readConversation(db, ids.get("long") ?? "");
    expect(conversation?.turns).toHaveLength(MAX_SHOWN_TURNS);
    expect(conversation?.totalTurns).toBe(302);
    expect(conversation?.turns[MAX_SHOWN_TURNS - 1].content).toBe(`turn ${MAX_SHOWN_TURNS}`);
  });
});
