import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JudgeBackend, ScoreMetricSettings } from "@/lib/judges/judgeBackend";
import type { JudgeResult } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "@/lib/judges/types";
import { deepEvalSettings, type DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";
import { type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import { openFakeLlmBackend } from "../support/fakeLlmBackend";
import { row } from "../support/judgeInputs";

// DeepEval's per-metric options as a run sets them, through the real LLM judge backend, openai SDK,
// fake server and SQLite judge cache: what each call asks for (schema and instructions) and what the
// score and details become.

let server: FakeOpenAIServer;
let backend: JudgeBackend;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, backend, close } = await openFakeLlmBackend(fakeScoreMetricResponder));
});
afterAll(async () => close());

const FAITHFULNESS = "response/llm_judged/faithfulness";
const SUMMARIZATION = "response/llm_judged/summarization";

async function judge(metric: string, input: JudgeInput, options: DeepEvalSettingsInput) {
  const before = server.requests.length;
  const settings: ScoreMetricSettings = { deepEval: deepEvalSettings(options) };
  const result: JudgeResult = await backend.judge({ metric, input, chunkMode: "batched", settings });
  return { result, requests: server.requests.slice(before) };
}

const schemaOf = (request: FakeOpenAIServer["requests"][number]) => request.body.response_format.json_schema.schema;
const systemOf = (request: FakeOpenAIServer["requests"][number]) => request.body.messages[0].content as string;

const claims = (n: number, marker = "") =>
  row(`Question ${n}${marker}`, {
    response: Array.from({ length: n }, (_, i) => `Claim ${i + 1}${marker}.`).join(" "),
    chunks: ["The context."],
  });

describe("include_reason", () => {
  it("off: neither the schema nor the instructions ask for the overall reason, and the result has none", async () => {
    const { result, requests } = await judge(FAITHFULNESS, claims(2, " no reason"), { includeReason: false });
    expect(requests).toHaveLength(1);
    expect(Object.keys(schemaOf(requests[0]).properties)).toEqual(["claims"]);
    expect(systemOf(requests[0])).not.toMatch(/overall reason/);
    expect(systemOf(requests[0])).toMatch(/"reason": "\.\.\."\}\]\}$/); // the per-claim reasons stay
    expect([result.errorMessage, result.rationale, result.score]).toEqual([null, null, 1]);
    expect(result.details?.groups[0].items.map((item) => item.reason)).toEqual([
      "compared with the context",
      "compared with the context",
    ]);
  });

  it("on (DeepEval's default): the reason is asked for and is the rationale", async () => {
    const { result, requests } = await judge(FAITHFULNESS, claims(2, " with reason"), {});
    expect(Object.keys(schemaOf(requests[0]).properties)).toEqual(["claims", "reason"]);
    expect(result.rationale).toBe("faithfulness_claims: checked");
  });

  it("off for summarization: the first call asks for no reason, the row has none, the second call is unchanged", async () => {
    const input = row("KEY1 costs $20. KEY2 has SSO.", { response: "KEY1 it costs $20." });
    const { result, requests } = await judge(SUMMARIZATION, input, { includeReason: false });
    expect(requests).toHaveLength(2);
    expect(Object.keys(schemaOf(requests[0]).properties)).toEqual(["claims", "questions"]);
    expect([result.errorMessage, result.rationale, result.score]).toEqual([null, null, 0.5]);
  });
});

describe("the list cap", () => {
  it("bounds every list the schema allows and the instructions state, and a list at the cap says so", async () => {
    const { result, requests } = await judge(FAITHFULNESS, claims(5, " capped"), { listCap: 5 });
    expect(schemaOf(requests[0]).properties.claims.maxItems).toBe(5);
    expect(systemOf(requests[0])).toContain("at most 5 items in a list");
    expect(result.details?.notes).toEqual([expect.stringMatching(/^The claims list reached the cap of 5 items \(5\)/)]);
  });

  it("at the default (40) a short list carries no note, and six claims stay six under a cap of 10", async () => {
    const { result, requests } = await judge(FAITHFULNESS, claims(6, " uncapped"), { listCap: 10 });
    expect(schemaOf(requests[0]).properties.claims.maxItems).toBe(10);
    expect([result.details?.figures?.claims, result.details?.notes]).toEqual([6, undefined]);
    const defaults = await judge(FAITHFULNESS, claims(6, " default cap"), {});
    expect(schemaOf(defaults.requests[0]).properties.claims.maxItems).toBe(40);
  });
});

describe("penalize_ambiguous_claims", () => {
  it("counts an idk claim against faithfulness: yes / claims instead of (yes + idk) / claims, and says so", async () => {
    const input = row("When is support open?", {
      response: "Support is open 9 to 5. It CONTRADICTS the context on weekends. It is UNKNOWN whether holidays count.",
      chunks: ["Support hours: 9 to 5 on weekdays; closed on weekends."],
    });
    const lenient = await judge(FAITHFULNESS, input, {});
    const strict = await judge(FAITHFULNESS, input, { penalizeAmbiguousClaims: true });
    expect(lenient.result.score).toBeCloseTo(2 / 3, 12);
    expect(strict.result.score).toBeCloseTo(1 / 3, 12);
    // The same prompt: the option changes the formula, not the question, so the second is a cache hit.
    expect([strict.requests.length, strict.result.cacheHit]).toEqual([0, true]);
    expect(strict.result.details?.notes).toEqual([expect.stringContaining("penalize_ambiguous_claims")]);
  });
});

describe("summarization's n and assessment_questions", () => {
  it("n: the first call asks for that many coverage questions", async () => {
    const input = row("KEY1 costs $20. KEY2 has SSO. n test.", { response: "KEY1 it costs $20." });
    const { requests } = await judge(SUMMARIZATION, input, { summarizationQuestions: 8 });
    expect(systemOf(requests[0])).toContain("Write 8 closed yes/no questions");
  });

  it("assessment_questions: none are written; each is answered from the source, then from the summary alone", async () => {
    const questions = ["Does the text state KEY1?", "Does the text state KEY2?", "Does the text state KEY3?"];
    const input = row("KEY1 costs $20. KEY2 has SSO. KEY3 has 5 seats.", {
      response: "KEY1 it costs $20. KEY3 five seats.",
    });
    const { result, requests } = await judge(SUMMARIZATION, input, { assessmentQuestions: questions });
    expect(requests).toHaveLength(2);
    for (const question of questions) expect(systemOf(requests[0])).toContain(question);
    expect(systemOf(requests[0])).not.toMatch(/Write \d+ closed/);
    expect(schemaOf(requests[0]).properties.questions.minItems).toBe(3);
    // The second call reads the summary and the run's questions, never the source.
    const second = requests[1].body.messages[1].content as string;
    expect(second).toContain("Does the text state KEY2?");
    expect(second).not.toContain("has SSO");
    expect(result.details?.groups[1].title).toBe("Coverage questions (the run's assessment questions)");
    expect(result.details?.groups[1].items.map((item) => [item.text, item.verdict])).toEqual([
      ["Does the text state KEY1?", "yes"],
      ["Does the text state KEY2?", "idk"],
      ["Does the text state KEY3?", "yes"],
    ]);
    expect(result.details?.figures?.coverage).toBeCloseTo(2 / 3, 12);
  });
});
