import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import type { JudgeResult } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "@/lib/judges/types";
import { deepEvalSettings, type DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import { type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { fakeScoreMetricResponder } from "../support/fakeScoreMetricResponder";
import { fencedContents } from "../support/fenced";
import { openFakeLlmBackend } from "../support/fakeLlmBackend";
import { row } from "../support/judgeInputs";

// DeepEval's own call structure, metric by metric, through the real LLM judge backend, openai SDK, fake
// server and SQLite judge cache: how many calls each row makes, what each call reads, and that a row's
// score is the folded structure's for the same verdicts.

let server: FakeOpenAIServer;
let backend: JudgeBackend;
let close: () => Promise<void>;
const responder: Responder = (body, ctx) =>
  fakeDeepEvalCallsResponder(body, ctx) ?? fakeScoreMetricResponder(body, ctx);

beforeAll(async () => {
  ({ server, backend, close } = await openFakeLlmBackend(responder));
});
afterAll(async () => close());

type Request = FakeOpenAIServer["requests"][number];
const nameOf = (request: Request): string => request.body.response_format.json_schema.name;
const userOf = (request: Request): string => request.body.messages[1].content;

async function judge(metric: string, input: JudgeInput, options: DeepEvalSettingsInput = {}) {
  const before = server.requests.length;
  const settings = { deepEval: deepEvalSettings({ callStructure: "deepeval", ...options }) };
  const result: JudgeResult = await backend.judge({ metric, input, chunkMode: "batched", settings });
  return { result, requests: server.requests.slice(before) };
}
async function folded(metric: string, input: JudgeInput) {
  return backend.judge({ metric, input, chunkMode: "batched", settings: { deepEval: deepEvalSettings({}) } });
}

const supportRow = (tag: string) =>
  row(`When is support open? ${tag}`, {
    response: `Support is open 9 to 5. It CONTRADICTS the context on weekends. It is UNKNOWN whether holidays count ${tag}.`,
    chunks: ["Support hours: 9 to 5 on weekdays. Closed on weekends."],
  });

describe("faithfulness as DeepEval calls it", () => {
  it("truths from the context and claims from the output alone, then verdicts against the truths, then the reason: 4 calls", async () => {
    const input = supportRow("a");
    const { result, requests } = await judge("response/llm_judged/faithfulness", input);
    expect(requests.map(nameOf).sort()).toEqual(
      ["deepeval_truths", "deepeval_claims", "deepeval_claim_verdicts", "deepeval_reason"].sort(),
    );
    // The two extractions go side by side, before the verdicts; the reason comes last.
    expect(requests.slice(2).map(nameOf)).toEqual(["deepeval_claim_verdicts", "deepeval_reason"]);
    const claims = requests.find((r) => nameOf(r) === "deepeval_claims");
    expect(claims && fencedContents(userOf(claims), "retrieval_node")).toEqual([]);
    expect(claims && userOf(claims)).not.toContain("Support hours");
    const truths = requests.find((r) => nameOf(r) === "deepeval_truths");
    expect(truths && fencedContents(userOf(truths), "actual_output")).toEqual([]);
    // The verdicts read the truths and the claims, never the context itself.
    const verdicts = requests.find((r) => nameOf(r) === "deepeval_claim_verdicts");
    expect(verdicts && fencedContents(userOf(verdicts), "truth")).toEqual([
      "Support hours: 9 to 5 on weekdays.",
      "Closed on weekends.",
    ]);
    expect(verdicts && fencedContents(userOf(verdicts), "retrieval_node")).toEqual([]);
    // DeepEval's rules on vague wording and on claims wrong but not contradicted.
    expect(verdicts?.body.messages[0].content).toContain('("may have", "possibly due to") is not a contradiction');
    expect(verdicts?.body.messages[0].content).toContain('is "idk" even when you know it to be factually wrong');

    expect(result.errorMessage).toBeNull();
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.score).toBe((await folded("response/llm_judged/faithfulness", input)).score);
    expect(result.rationale).toBe("deepeval_reason: 1 points");
    expect(result.promptVersion).toBe("deepeval_calls/v1 faithfulness (4 calls)");
    expect(result.attempts).toBe(4);
    expect(result.details?.groups.map((g) => g.title)).toEqual(["Claims", "Truths from the retrieval context"]);
  });

  it("without include_reason makes no reason call; with truths_extraction_limit asks for that many and says so", async () => {
    const { result, requests } = await judge("response/llm_judged/faithfulness", supportRow("b"), {
      includeReason: false,
      truthsExtractionLimit: 2,
    });
    expect(requests.map(nameOf)).not.toContain("deepeval_reason");
    expect(requests).toHaveLength(3);
    const truths = requests.find((r) => nameOf(r) === "deepeval_truths");
    expect(truths?.body.messages[0].content).toContain("List only the 2 most important truths per document.");
    expect(truths?.body.response_format.json_schema.schema.properties.truths.maxItems).toBe(2);
    expect(result.rationale).toBeNull();
    expect(result.details?.notes).toContain(
      "The truths were limited to the 2 most important per document (truths_extraction_limit), 1 document.",
    );
  });

  it("asks for truths_extraction_limit truths per document, as DeepEval does: the list may hold that many for each chunk", async () => {
    const input = row("When is support open? c", {
      response: "Support is open 9 to 5.",
      chunks: ["Support hours: 9 to 5 on weekdays.", "Closed on weekends.", "Holidays follow the calendar."],
    });
    const { requests } = await judge("response/llm_judged/faithfulness", input, { truthsExtractionLimit: 2 });
    const truths = requests.find((r) => nameOf(r) === "deepeval_truths");
    expect(truths?.body.messages[0].content).toContain("List only the 2 most important truths per document.");
    expect(fencedContents(userOf(truths ?? requests[0]), "retrieval_node")).toHaveLength(3);
    expect(truths?.body.response_format.json_schema.schema.properties.truths.maxItems).toBe(6);
  });

  it("costs nothing on a re-run: every call is cached", async () => {
    const again = await judge("response/llm_judged/faithfulness", supportRow("a"));
    expect([again.requests.length, again.result.cacheHit, again.result.score]).toEqual([0, true, 2 / 3]);
  });
});

describe("the other metrics as DeepEval calls them", () => {
  it("answer relevancy: statements from the output alone, verdicts against the input without the context, reason", async () => {
    const input = row("How do I reset my password?", {
      response: "Open Settings. Click Reset password. OFFTOPIC our office has a cat. MAYBE passwords expire yearly.",
      chunks: ["Passwords are reset from Settings."],
    });
    const { result, requests } = await judge("response/llm_judged/answer_relevancy", input);
    expect(requests.map(nameOf)).toEqual(["deepeval_statements", "deepeval_statement_verdicts", "deepeval_reason"]);
    expect(fencedContents(userOf(requests[1]), "retrieval_node")).toEqual([]);
    // DeepEval's reason template takes the input beside the irrelevant statements.
    expect(fencedContents(userOf(requests[2]), "input")).toEqual(["How do I reset my password?"]);
    expect(fencedContents(userOf(requests[2]), "point")).toHaveLength(1);
    expect(result.score).toBe(3 / 4);
    expect(result.score).toBe((await folded("response/llm_judged/answer_relevancy", input)).score);
  });

  it("contextual relevancy: one call per retrieved chunk, each reading that chunk only, then the reason", async () => {
    const chunks = [
      "Plan A has SSO.",
      "IRRELEVANT the cafeteria opens at noon.",
      "Plan B has SSO. IRRELEVANT parking.",
    ];
    const input = row("Which plans have SSO?", { chunks });
    const { result, requests } = await judge("retrieval/llm_judged/contextual_relevancy", input);
    const perChunk = requests.filter((r) => nameOf(r) === "deepeval_node_statements");
    expect(perChunk).toHaveLength(3);
    expect(perChunk.map((r) => fencedContents(userOf(r), "retrieval_node")).sort()).toEqual(
      chunks.map((c) => [c]).sort(),
    );
    expect(requests.at(-1) && nameOf(requests.at(-1) as Request)).toBe("deepeval_reason");
    expect(requests).toHaveLength(4);
    // DeepEval's reason template: the input, the irrelevant statements and the relevant ones.
    const reason = userOf(requests[3]);
    expect(fencedContents(reason, "input")).toEqual(["Which plans have SSO?"]);
    expect(fencedContents(reason, "point")).toHaveLength(4);
    expect(reason.indexOf("Relevant statements:")).toBeGreaterThan(reason.indexOf("Irrelevant statements:"));
    // 2 of 4 statements relevant, as the folded call finds.
    expect(result.score).toBe(0.5);
    expect(result.score).toBe((await folded("retrieval/llm_judged/contextual_relevancy", input)).score);
  });

  it("contextual precision, recall and hallucination: one verdict call, then the reason", async () => {
    const input = row("What plans include SSO?", {
      expectedResponse: "Business includes SSO. Enterprise UNSUPPORTED includes audit logs.",
      chunks: ["IRRELEVANT the cafeteria.", "Business includes SSO."],
      expectedContext: ["Business includes SSO.", "CONTRADICTED Enterprise has no SSO."],
      response: "Business includes SSO.",
    });
    for (const [metric, verdictCall] of [
      ["retrieval/llm_judged/contextual_precision", "deepeval_node_verdicts"],
      ["retrieval/llm_judged/contextual_recall", "contextual_recall_sentences"],
      ["response/llm_judged/hallucination", "hallucination_context_items"],
    ]) {
      const { result, requests } = await judge(metric, input);
      expect(requests.map(nameOf)).toEqual([verdictCall, "deepeval_reason"]);
      // The verdict call asks for no overall reason: DeepEval's reason is its own call.
      expect(Object.keys(requests[0].body.response_format.json_schema.schema.properties)).not.toContain("reason");
      // What DeepEval's verdict template takes: contextual precision's takes the input, recall's and hallucination's do not.
      expect(fencedContents(userOf(requests[0]), "request")).toEqual(
        metric.endsWith("contextual_precision") ? ["What plans include SSO?"] : [],
      );
      expect(result.score).toBe((await folded(metric, input)).score);
      expect(result.rationale).toMatch(/^deepeval_reason: /);
      // What DeepEval's reason template takes besides the score and the verdicts that lowered it.
      const reason = userOf(requests[1]);
      const given = (name: string) => fencedContents(reason, name);
      if (metric.endsWith("contextual_precision")) expect(given("input")).toEqual(["What plans include SSO?"]);
      if (metric.endsWith("contextual_recall")) {
        expect(given("expected_output")).toEqual([input.expectedResponse]);
        expect(reason).toContain("Expected output sentences a node supports:");
      }
      if (metric.endsWith("hallucination")) {
        expect(given("input")).toEqual([]);
        expect(reason).toContain("Context items the output agrees with:");
      }
    }
  });

  it("toxicity and bias: opinions from the output alone, verdicts on the opinions alone (none when there is none), reason", async () => {
    const toxic = row("Review my code", {
      response: "Line 3 has a bug. OPINION TOXIC only an idiot writes this. OPINION the naming is good.",
    });
    const t = await judge("response/llm_judged/toxicity", toxic);
    expect(t.requests.map(nameOf)).toEqual(["deepeval_opinions", "deepeval_toxicity_verdicts", "deepeval_reason"]);
    expect(fencedContents(userOf(t.requests[1]), "opinion")).toEqual([
      "OPINION TOXIC only an idiot writes this.",
      "OPINION the naming is good.",
    ]);
    expect(t.result.score).toBe(0.5);
    const factual = await judge("response/llm_judged/bias", row("Hours?", { response: "We open at 9." }));
    expect(factual.requests.map(nameOf)).toEqual(["deepeval_opinions", "deepeval_reason"]);
    expect(factual.result.score).toBe(0);
  });

  it("summarization: truths, claims and questions, then alignment and both sets of answers, then the reason: 7 calls", async () => {
    const source = "KEY1 the plan costs $20. KEY2 it includes SSO. KEY3 it has 5 seats. KEY4 support is 24/7.";
    const input = row(source, { response: "KEY1 it costs $20. KEY2 SSO is included. INVENTED it has a free trial." });
    const { result, requests } = await judge("response/llm_judged/summarization", input);
    expect(requests).toHaveLength(7);
    expect(requests.slice(0, 3).map(nameOf).sort()).toEqual([
      "deepeval_claims",
      "deepeval_questions",
      "deepeval_truths",
    ]);
    expect(requests.slice(3, 6).map(nameOf).sort()).toEqual([
      "deepeval_answers",
      "deepeval_answers",
      "deepeval_claim_verdicts",
    ]);
    const answers = requests.filter((r) => nameOf(r) === "deepeval_answers").map(userOf);
    // One set read from the source, one from the summary alone.
    expect(answers.filter((text) => fencedContents(text, "source_text").length === 1)).toHaveLength(1);
    expect(answers.filter((text) => fencedContents(text, "actual_output").length === 1)).toHaveLength(1);
    // DeepEval's question: whether the text holds enough to answer, yes or no (not whether its answer is right).
    const answerCall = requests.find((r) => nameOf(r) === "deepeval_answers");
    expect(answerCall?.body.messages[0].content).toContain("contains enough information to answer it");
    expect(answerCall?.body.response_format.json_schema.schema.properties.answers.items.properties.answer.enum).toEqual(
      ["yes", "no"],
    );
    expect(result.score).toBe(0.5);
    expect(result.score).toBe((await folded("response/llm_judged/summarization", input)).score);

    const given = await judge("response/llm_judged/summarization", input, {
      assessmentQuestions: ["Does the text state KEY1?"],
      includeReason: false,
    });
    expect(given.requests.map(nameOf)).not.toContain("deepeval_questions");
    // Truths and claims come from the cache (the same row); the two answer calls read the run's question.
    expect(given.requests.map(nameOf)).toEqual(["deepeval_answers", "deepeval_answers"]);
    expect(given.result.promptVersion).toBe("deepeval_calls/v1 summarization (5 calls)");
  });

  it("a failed call makes the row an error that names the call; nothing is guessed", async () => {
    server.enqueue("schema_violation", "schema_violation");
    const { result } = await judge("response/llm_judged/answer_relevancy", row("Broken?", { response: "One. Two." }));
    expect(result.score).toBeNull();
    expect(result.errorMessage).toMatch(/^DeepEval's call structure: the deepeval_calls\.statements\/v1 call failed: /);
  });
});
