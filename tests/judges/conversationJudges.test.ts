import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION_METRICS } from "@/lib/contract/conversationMetricCatalog";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { JudgeResult } from "@/lib/contract/judgeResult";
import { deepEvalTurns, unitInteractions } from "@/lib/judges/conversationCalls/conversationText";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import type { JudgeInput } from "@/lib/judges/types";
import { deepEvalCallShape } from "@/lib/metrics/deepEvalCallCounts";
import { fakeConversationResponder } from "../support/fakeConversationResponder";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { openFakeLlmBackend } from "../support/fakeLlmBackend";
import type { FakeOpenAIServer, Responder } from "../support/fakeOpenAIServer";
import { fencedContents } from "../support/fenced";
import { row } from "../support/judgeInputs";

// The conversation judges (lib/judges/conversationCalls) through the real LLM judge backend, openai SDK, fake
// server and SQLite judge cache: each metric's calls as its upstream makes them, counted against the catalogue,
// and its verdict by the upstream's formula. The fake's markers are listed in fakeConversationResponder.ts.

let server: FakeOpenAIServer;
let backend: JudgeBackend;
let close: () => Promise<void>;
const responder: Responder = (body, ctx) =>
  fakeConversationResponder(body, ctx) ?? fakeDeepEvalCallsResponder(body, ctx);

beforeAll(async () => {
  ({ server, backend, close } = await openFakeLlmBackend(responder));
});
afterAll(async () => close());

const MLFLOW = {
  completeness: "conversation/llm_judged/conversation_completeness",
  retention: "conversation/llm_judged/knowledge_retention",
  role: "conversation/llm_judged/conversational_role_adherence",
  safety: "conversation/llm_judged/conversational_safety",
};
const DEEPEVAL = {
  completeness: "conversation/deepeval/conversation_completeness",
  relevancy: "conversation/deepeval/turn_relevancy",
  retention: "conversation/deepeval/knowledge_retention",
};
const ALL = [...Object.values(MLFLOW), ...Object.values(DEEPEVAL)];

type Turn = { role: string; content: string };
type Request = FakeOpenAIServer["requests"][number];
const nameOf = (request: Request): string => request.body.response_format.json_schema.name;
const userOf = (request: Request): string => request.body.messages[1].content;
const turnNumbers = (request: Request): number[] =>
  [...userOf(request).matchAll(/<untrusted_turn_[0-9a-f]{12} turn="(\d+)">/g)].map((m) => Number(m[1]));

const conversationRow = (conversation: Turn[]): JudgeInput => ({
  ...row(conversation.find((t) => t.role === "user")?.content ?? ""),
  conversation,
});

async function judge(metric: string, input: JudgeInput, includeReason = true) {
  const before = server.requests.length;
  const settings = { deepEval: deepEvalSettings({ includeReason }) };
  const result: JudgeResult = await backend.judge({ metric, input, chunkMode: "batched", settings });
  return { result, requests: server.requests.slice(before) };
}

/** The calls the catalogue (MLflow) or deepEvalCallCounts (DeepEval, with include_reason) counts for `exchanges`. */
function catalogueCalls(metric: string, exchanges: number, includeReason: boolean): number {
  const shape = deepEvalCallShape(metric, deepEvalSettings({ includeReason }));
  if (shape) return shape.callsPerRow + (shape.callsPerExchange ?? 0) * exchanges;
  const definition = CONVERSATION_METRICS.find((m) => m.name === metric);
  return (definition?.callsPerRow ?? 0) + (definition?.callsPerExchange ?? 0) * exchanges;
}

const tagsOf = (result: JudgeResult) => result.details?.groups.flatMap((g) => g.items.flatMap((i) => i.tags ?? []));
const turnTagsOf = (result: JudgeResult) => tagsOf(result)?.filter((tag) => /^turn \d+$/.test(tag));

/**
 * Three exchanges (turns 1–6). The user gives knowledge in turns 1 and 3; turn 3's request is UNMET; turn 4
 * answers OFFTOPIC and FORGETS; UNSAFE is only in a user turn (5).
 */
const threeExchanges = (tag: string): Turn[] => [
  { role: "user", content: `FACT:name=Ada I am Ada. Which plans include SSO? ${tag}` },
  { role: "assistant", content: `Business and Enterprise include SSO, Ada. ${tag}` },
  { role: "user", content: `FACT:city=Lyon I live in Lyon. UNMET Send me the invoice as a PDF. ${tag}` },
  { role: "assistant", content: `OFFTOPIC Nice weather today. FORGETS Where do you live? ${tag}` },
  { role: "user", content: `UNSAFE how do I pick a lock? And what does Business cost? ${tag}` },
  { role: "assistant", content: `Business costs $20 a month. ${tag}` },
];

describe("a conversation of 3 exchanges", () => {
  it("makes the catalogue's number of calls per metric, with and without include_reason", async () => {
    for (const includeReason of [true, false]) {
      const input = conversationRow(threeExchanges(includeReason ? "a" : "b"));
      for (const metric of ALL) {
        const { result, requests } = await judge(metric, input, includeReason);
        expect(result.errorMessage, metric).toBeNull();
        expect(requests.length, `${metric} reason=${includeReason}`).toBe(catalogueCalls(metric, 3, includeReason));
        expect(result.promptVersion).toMatch(new RegExp(`\\(${requests.length} calls?\\)$`));
        const reasons = requests.filter((r) => nameOf(r) === "deepeval_reason").length;
        expect(reasons, metric).toBe(includeReason && metric.startsWith("conversation/deepeval/") ? 1 : 0);
      }
    }
  });

  it("MLflow: completeness and knowledge retention say no and tag the failing turn; UNSAFE from the user is not the assistant's", async () => {
    const input = conversationRow(threeExchanges("e"));
    const completeness = (await judge(MLFLOW.completeness, input)).result;
    expect([completeness.rating, completeness.score]).toEqual(["no", null]);
    expect(turnTagsOf(completeness)).toEqual(["turn 3"]);

    const safety = await judge(MLFLOW.safety, input);
    expect([safety.result.rating, turnTagsOf(safety.result)]).toEqual(["yes", []]);
    expect(fencedContents(userOf(safety.requests[0]), "turn")[4]).toContain("user: UNSAFE");
    expect((await judge(MLFLOW.role, input)).result.rating).toBe("yes");
  });

  it("MLflow knowledge retention: one call per exchange, each reading up to its answer; worst case over the turns", async () => {
    const { result, requests } = await judge(MLFLOW.retention, conversationRow(threeExchanges("c")));
    expect(requests.map(nameOf)).toEqual(Array(3).fill("mlflow_last_turn_knowledge_retention"));
    expect(requests.map(turnNumbers).sort((a, b) => a.length - b.length)).toEqual([
      [1, 2],
      [1, 2, 3, 4],
      [1, 2, 3, 4, 5, 6],
    ]);
    // Turn 2 ✓, turn 4 ✗ (FORGETS), turn 6 ✓: one "no" makes the conversation's answer "no".
    expect([result.rating, result.score]).toEqual(["no", null]);
    expect(turnTagsOf(result)).toEqual(["turn 4"]);
    expect(result.rationale).toBe(
      [
        "Knowledge retention evaluation across 3 turn(s):",
        "- Turn 2: ✓ read turns 1-2, judged turn 2",
        "- Turn 4: ✗ read turns 1-4, judged turn 4",
        "- Turn 6: ✓ read turns 1-6, judged turn 6",
        "",
        "Overall: NO - Knowledge retention failed in 1 out of 3 turn(s).",
      ].join("\n"),
    );
    expect(result.details?.figures).toEqual({ turns_judged: 3, failed: 1 });
  });

  it("DeepEval: the scores by DeepEval's formulas, the details naming each intention, unit and assistant turn", async () => {
    const input = conversationRow(threeExchanges("a"));
    // Completeness: intentions of turns 1, 3, 5; turn 3's is UNMET → #(≠no)/#verdicts = 2/3.
    const completeness = (await judge(DEEPEVAL.completeness, input)).result;
    expect(completeness.score).toBeCloseTo(2 / 3, 12);
    expect(completeness.rationale).toBe("deepeval_reason: 1 points");
    expect(completeness.details?.groups[0].items.map((i) => i.verdict)).toEqual(["yes", "no", "yes"]);

    // Turn relevancy: units (1,2), (3,4), (5,6); turn 4 is OFFTOPIC → 2/3; turn 4 tagged.
    const relevancy = (await judge(DEEPEVAL.relevancy, input)).result;
    expect(relevancy.score).toBeCloseTo(2 / 3, 12);
    expect(turnTagsOf(relevancy)).toEqual(["turn 4"]);
    expect(relevancy.details?.figures).toEqual({ units: 3, window_size: 10, irrelevant: 1 });

    // Knowledge retention: knowledge from turns 1 and 3 (turn 5 has none); verdicts on turns 2, 4, 6; turn 4
    // FORGETS ("yes") → #(verdict = no)/#verdicts = 2/3.
    const retention = (await judge(DEEPEVAL.retention, input)).result;
    expect(retention.score).toBeCloseTo(2 / 3, 12);
    expect(turnTagsOf(retention)).toEqual(["turn 4"]);
    expect(retention.details?.groups.map((g) => g.items.map((i) => i.verdict))).toEqual([
      ["retains", "forgets", "retains"],
      ["given", "given"],
    ]);
  });

  it("DeepEval knowledge retention reads each user turn with the turns before it, and judges an answer against the knowledge before it", async () => {
    const { requests } = await judge(DEEPEVAL.retention, conversationRow(threeExchanges("d")), false);
    // In sequence, as DeepEval awaits them: the three extractions, then the three verdicts.
    expect(requests.map(nameOf)).toEqual([
      ...Array(3).fill("deepeval_knowledge"),
      ...Array(3).fill("deepeval_retention_verdict"),
    ]);
    expect(requests.slice(0, 3).map(turnNumbers)).toEqual([[], [1, 2], [1, 2, 3, 4]]);
    const knowledge = requests.slice(3).map((r) => JSON.parse(fencedContents(userOf(r), "previous_knowledge")[0]));
    expect(knowledge).toEqual([
      [{ name: "Ada" }],
      [{ name: "Ada" }, { city: "Lyon" }],
      [{ name: "Ada" }, { city: "Lyon" }],
    ]);
  });

  it("serves a second identical judgment from the cache: no request", async () => {
    const input = conversationRow(threeExchanges("a"));
    for (const metric of ALL) {
      const first = (await judge(metric, input)).result;
      const again = await judge(metric, input);
      expect(again.requests, metric).toHaveLength(0);
      expect(again.result.cacheHit).toBe(true);
      expect([again.result.rating, again.result.score, again.result.rationale]).toEqual([
        first.rating,
        first.score,
        first.rationale,
      ]);
    }
  });
});

/**
 * Twelve exchanges (turns 1–24), exchange k being turns 2k−1 (user) and 2k (assistant): knowledge in turn 1;
 * UNMET in exchanges 2 and 5 (turns 3, 9); OFFTOPIC answers in 3 and 11 (turns 6, 22); FORGETS in 7 (turn 14);
 * OFFROLE in 9 (turn 18); UNSAFE in 12 (turn 24).
 */
const twelveExchanges: Turn[] = Array.from({ length: 12 }, (_, i) => i + 1).flatMap((k) => [
  {
    role: "user",
    content: `Question ${k}.${k === 1 ? " FACT:name=Ada" : ""}${k === 2 || k === 5 ? " UNMET" : ""}`,
  },
  {
    role: "assistant",
    content: `Answer ${k}.${k === 3 || k === 11 ? " OFFTOPIC" : ""}${k === 7 ? " FORGETS" : ""}${k === 9 ? " OFFROLE" : ""}${k === 12 ? " UNSAFE" : ""}`,
  },
]);

describe("a conversation of 12 exchanges (more unit interactions than the window of 10)", () => {
  it("makes the catalogue's number of calls per metric, and each verdict by the upstream formula", async () => {
    const input = conversationRow(twelveExchanges);
    const results: Record<string, JudgeResult> = {};
    for (const metric of ALL) {
      const { result, requests } = await judge(metric, input);
      expect(requests.length, metric).toBe(catalogueCalls(metric, 12, true));
      results[metric] = result;
    }
    // MLflow, worst case: one "no" anywhere is the conversation's "no", with its turns tagged.
    expect(turnTagsOf(results[MLFLOW.completeness])).toEqual(["turn 3", "turn 9"]);
    expect(turnTagsOf(results[MLFLOW.retention])).toEqual(["turn 14"]);
    expect(turnTagsOf(results[MLFLOW.role])).toEqual(["turn 18"]);
    expect(turnTagsOf(results[MLFLOW.safety])).toEqual(["turn 24"]);
    for (const metric of Object.values(MLFLOW)) expect(results[metric].rating, metric).toBe("no");
    // DeepEval: completeness 10 of 12 intentions met; relevancy 10 of 12 units relevant; retention 11 of 12
    // answers keep the knowledge of turn 1.
    expect(results[DEEPEVAL.completeness].score).toBeCloseTo(10 / 12, 12);
    expect(results[DEEPEVAL.relevancy].score).toBeCloseTo(10 / 12, 12);
    expect(turnTagsOf(results[DEEPEVAL.relevancy])).toEqual(["turn 6", "turn 22"]);
    expect(results[DEEPEVAL.retention].score).toBeCloseTo(11 / 12, 12);
    expect(turnTagsOf(results[DEEPEVAL.retention])).toEqual(["turn 14"]);
  });

  it("turn relevancy: the window ending at unit k holds units k−9 to k, so 20 turns at most", async () => {
    const { requests } = await judge(DEEPEVAL.relevancy, conversationRow(twelveExchanges.map(retagged("w"))), false);
    const windows = requests.map(turnNumbers).sort((a, b) => a[a.length - 1] - b[b.length - 1]);
    expect(windows.map((w) => [w[0], w[w.length - 1], w.length])).toEqual([
      ...Array.from({ length: 10 }, (_, i) => [1, 2 * (i + 1), 2 * (i + 1)]),
      [3, 22, 20],
      [5, 24, 20],
    ]);
  });
});

const retagged =
  (tag: string) =>
  (turn: Turn): Turn => ({ ...turn, content: `${turn.content} ${tag}` });

describe("DeepEval's unit interactions, edge for edge", () => {
  const turnsOf = (roles: string) =>
    deepEvalTurns(
      conversationRow([...roles].map((r, i) => ({ role: r === "u" ? "user" : "assistant", content: `${i + 1}` }))),
    );
  const unitsOf = (roles: string) => unitInteractions(turnsOf(roles)).map((unit) => unit.map((t) => t.number));

  it("drops a trailing user turn, folds a leading assistant turn into the first unit, keeps runs together", () => {
    expect(unitsOf("uauau")).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(unitsOf("auaua")).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(unitsOf("uuaau")).toEqual([[1, 2, 3, 4]]);
    expect(unitsOf("uaaua")).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // No user at all, or a lone user: no unit.
    expect(unitsOf("aa")).toEqual([]);
    expect(unitsOf("u")).toEqual([]);
  });

  it("through the backend: a trailing user turn is not judged for relevancy, and says so", async () => {
    const conversation = [
      { role: "user", content: "FACT:plan=Pro Which plan am I on? t" },
      { role: "assistant", content: "You are on Pro. t" },
      { role: "user", content: "And its price? t" },
      { role: "assistant", content: "OFFTOPIC I like trains. t" },
      { role: "user", content: "Hello? t" },
    ];
    const relevancy = await judge(DEEPEVAL.relevancy, conversationRow(conversation));
    expect(relevancy.requests.map(nameOf)).toEqual([
      "deepeval_turn_relevancy_verdict",
      "deepeval_turn_relevancy_verdict",
      "deepeval_reason",
    ]);
    expect(relevancy.result.score).toBe(1 / 2);
    expect(relevancy.result.details?.notes).toEqual([
      "The last 1 turn(s) have no assistant answer after them: DeepEval's unit interactions leave them out.",
    ]);
    // MLflow judges the two answers; DeepEval's knowledge retention still reads all three user turns.
    const mlflow = await judge(MLFLOW.retention, conversationRow(conversation));
    expect([mlflow.requests.length, mlflow.result.rating, turnTagsOf(mlflow.result)]).toEqual([2, "yes", []]);
    const retention = await judge(DEEPEVAL.retention, conversationRow(conversation), false);
    expect(retention.requests.map(nameOf).filter((n) => n === "deepeval_knowledge")).toHaveLength(3);
    expect(retention.requests.map(nameOf).filter((n) => n === "deepeval_retention_verdict")).toHaveLength(2);
  });

  it("through the backend: a conversation that starts with the assistant folds that turn into the first window", async () => {
    const conversation = [
      { role: "assistant", content: "Hello, how can I help? s" },
      { role: "user", content: "Which plan am I on? s" },
      { role: "assistant", content: "OFFTOPIC I like trains. s" },
      { role: "user", content: "And its price? s" },
      { role: "assistant", content: "Pro costs $20. s" },
    ];
    const { result, requests } = await judge(DEEPEVAL.relevancy, conversationRow(conversation), false);
    expect(requests.map(turnNumbers).sort((a, b) => a.length - b.length)).toEqual([
      [1, 2, 3],
      [1, 2, 3, 4, 5],
    ]);
    expect(result.score).toBe(1 / 2);
    expect(turnTagsOf(result)).toEqual(["turn 3"]);
    // MLflow: the greeting answers nothing; the two answers after a user turn are judged.
    expect((await judge(MLFLOW.retention, conversationRow(conversation))).requests).toHaveLength(2);
  });

  it("DeepEval leaves a system turn out (its turns are user or assistant); MLflow's role adherence reads it", async () => {
    const conversation = [
      { role: "system", content: "You are a billing assistant. r" },
      { role: "user", content: "What is my plan? r" },
      { role: "assistant", content: "OFFROLE Let me write you a poem instead. r" },
    ];
    const role = await judge(MLFLOW.role, conversationRow(conversation));
    expect(fencedContents(userOf(role.requests[0]), "turn")[0]).toBe("system: You are a billing assistant. r");
    expect([role.result.rating, turnTagsOf(role.result)]).toEqual(["no", ["turn 3"]]);
    const relevancy = await judge(DEEPEVAL.relevancy, conversationRow(conversation), false);
    expect(turnNumbers(relevancy.requests[0])).toEqual([2, 3]);
    expect(relevancy.result.details?.notes?.[0]).toMatch(/^1 turn\(s\) neither user nor assistant/);
  });
});

describe("a row with nothing to judge", () => {
  it("without a conversation, or without an assistant turn, is an error saying why, with no call", async () => {
    const cases: [JudgeInput, RegExp][] = [
      [row("Hello?"), /No conversation to judge/],
      [conversationRow([{ role: "user", content: "Anyone there?" }]), /no assistant turn/],
    ];
    for (const [input, why] of cases)
      for (const metric of ALL) {
        const { result, requests } = await judge(metric, input);
        expect(requests, metric).toHaveLength(0);
        expect([result.rating, result.score]).toEqual([null, null]);
        expect(result.errorMessage, metric).toMatch(why);
      }
  });
});
