import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import type { JudgeResult } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "@/lib/judges/types";
import { type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import { fenced } from "../support/fenced";
import { openFakeLlmBackend } from "../support/fakeLlmBackend";
import { row } from "../support/judgeInputs";

// Summarization as DeepEval defines it: the coverage questions are answered
// once from the source and once from the summary alone. Two calls per row
// through the real backend, openai SDK, fake server and SQLite judge cache:
// the second call never sees the source, each call is cached, and a second
// call that fails is an error result, not a crash and not a score.

const SUMMARIZATION = "response/llm_judged/summarization";

/** fakeScoreMetricResponder, except that the summary-only answers come back with the wrong count for a summary saying BROKEN. */
const responder: Responder = (body, ctx) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? body.tools?.[0]?.function?.name ?? "";
  const user = (body.messages as { role: string; content: string }[]).map((m) => m.content).join("\n");
  if (schemaName === "summarization_summary_answers" && user.includes("BROKEN")) return JSON.stringify({ answers: [] });
  return fakeScoreMetricResponder(body, ctx);
};

let server: FakeOpenAIServer;
let backend: JudgeBackend;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, backend, close } = await openFakeLlmBackend(responder));
});
afterAll(async () => close());

async function judge(input: JudgeInput): Promise<{ result: JudgeResult; sent: string[] }> {
  const before = server.requests.length;
  const result = await backend.judge({ metric: SUMMARIZATION, input, chunkMode: "batched" });
  const sent = server.requests
    .slice(before)
    .map((r) => (r.body.messages as { content: string }[]).map((m) => m.content).join("\n"));
  return { result, sent };
}

describe("summarization in two calls", () => {
  const source = "KEY1 the plan costs $20 a month (SOURCE-ONLY-DETAIL). KEY2 it includes SSO. KEY3 it has 5 seats.";
  const input = row(source, { response: "KEY1 it costs $20. KEY3 five seats. INVENTED a free trial." });

  it("asks source + summary first, then the summary alone with the first call's questions", async () => {
    const { result, sent } = await judge(input);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toContain("SOURCE-ONLY-DETAIL");
    expect(sent[1]).not.toContain("SOURCE-ONLY-DETAIL");
    expect(sent[1]).not.toContain("<untrusted_source_text");
    expect(sent[1]).toContain("INVENTED a free trial.");
    expect(sent[1]).toContain(fenced("question", "Does the text state KEY2?", ' index="2"'));
    // alignment 2/3 (the invented claim is idk), coverage 2/3 (KEY2 missing) → min = 2/3
    expect(result.errorMessage).toBeNull();
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.details?.figures).toMatchObject({ alignment: 2 / 3, coverage: 2 / 3, claims: 3, questions: 3 });
    expect(result.details?.groups[1].items.map((i) => [i.text, i.verdict, i.tags])).toEqual([
      ["Does the text state KEY1?", "yes", ["source: yes", "summary: yes"]],
      ["Does the text state KEY2?", "idk", ["source: yes", "summary: idk"]],
      ["Does the text state KEY3?", "yes", ["source: yes", "summary: yes"]],
    ]);
    expect(result.rationale).toBe("summarization_claims_questions: checked");
    expect(result.promptVersion).toBe("deepeval.summarization/v3 + deepeval.summarization_summary_answers/v2");
    expect(result.promptHash).toMatch(/^[0-9a-f]{64}$/);
    expect([result.attempts, result.cacheHit]).toEqual([2, false]);
  });

  it("re-runs from the cache with no call, to the same score and prompt hash", async () => {
    const first = await judge(input);
    expect(first.sent).toHaveLength(0);
    expect([first.result.cacheHit, first.result.attempts]).toEqual([true, 0]);
    expect(first.result.score).toBeCloseTo(2 / 3, 12);
  });

  it("turns a second answer that stays malformed into an error result; a re-run retries only the second call", async () => {
    const broken = row(source, { response: "KEY1 it costs $20. BROKEN." });
    const { result, sent } = await judge(broken);
    // call 1, call 2, its one repair attempt
    expect(sent).toHaveLength(3);
    expect([result.score, result.details ?? null]).toEqual([null, null]);
    expect(result.errorMessage).toMatch(
      /^the follow-up call \(deepeval\.summarization_summary_answers\/v2\) failed: .*malformed even after a repair attempt/,
    );
    expect(result.attempts).toBe(3);

    const again = await judge(broken);
    expect(again.sent.map((text) => text.includes("<untrusted_source_text"))).toEqual([false, false]);
    expect(again.result.errorMessage).not.toBeNull();
  });
});
