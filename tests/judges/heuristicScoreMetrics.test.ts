import { describe, expect, it } from "vitest";
import { SCORE_METRIC_HEURISTICS } from "@/lib/judges/heuristic/scoreMetrics";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "@/lib/judges/types";
import { row } from "../support/judgeInputs";

function offline(metric: string, input: JudgeInput): JudgeVerdict {
  const rule = SCORE_METRIC_HEURISTICS[metric];
  if (!rule) throw new Error(`${metric} has no offline rule`);
  return rule(input);
}
const verdicts = (v: JudgeVerdict) => v.details?.groups[0].items.map((item) => item.verdict);

describe("offline DeepEval metrics: only where a lexical rule means the same thing", () => {
  it("covers faithfulness, hallucination, contextual precision/recall and toxicity, and nothing it cannot judge", () => {
    expect(Object.keys(SCORE_METRIC_HEURISTICS).sort()).toEqual([
      "response/llm_judged/faithfulness",
      "response/llm_judged/hallucination",
      "response/llm_judged/toxicity",
      "retrieval/llm_judged/contextual_precision",
      "retrieval/llm_judged/contextual_recall",
    ]);
  });

  it("faithfulness: supported claims yes, a different number no, the rest idk; (yes + idk) / claims", () => {
    const v = offline(
      "response/llm_judged/faithfulness",
      row("Refunds?", {
        response:
          "Refunds are issued within 30 days of purchase. Refunds are paid to the original card. Our office dog is named Biscuit.",
        chunks: ["Refunds are issued within 14 days of purchase.", "Refunds are paid to the original card."],
      }),
    );
    expect(verdicts(v)).toEqual(["no", "yes", "idk"]);
    expect(v.score).toBeCloseTo(2 / 3, 12);
    expect(v.details?.groups[0].items[0].reason).toContain("14 days");
  });

  it("faithfulness with DeepEval's penalize_ambiguous_claims: the idk claim counts against the score", () => {
    const input = row("Refunds?", {
      response: "Refunds are paid to the original card. Our office dog is named Biscuit.",
      chunks: ["Refunds are paid to the original card."],
    });
    const rule = SCORE_METRIC_HEURISTICS["response/llm_judged/faithfulness"];
    const penalized = rule?.(input, { deepEval: deepEvalSettings({ penalizeAmbiguousClaims: true }) });
    expect([offline("response/llm_judged/faithfulness", input).score, penalized?.score]).toEqual([1, 0.5]);
    expect(penalized?.rationale).toContain("penalize_ambiguous_claims");
  });

  it("faithfulness: a response with no claim scores 1", () => {
    expect(offline("response/llm_judged/faithfulness", row("Hi", { response: "Yes.", chunks: ["x"] })).score).toBe(1);
  });

  it("hallucination: an ideal-context item whose number the response changes is contradicted", () => {
    const v = offline(
      "response/llm_judged/hallucination",
      row("Limits?", {
        response: "The API allows 500 requests per minute and supports JSON.",
        expectedContext: ["The API allows 100 requests per minute.", "Responses are JSON."],
      }),
    );
    expect(verdicts(v)).toEqual(["no", "yes"]);
    expect(v.score).toBe(0.5);
  });

  it("contextual recall and precision: expected sentences attributed to nodes; rank-weighted precision over supporting nodes", () => {
    const input = row("Plans?", {
      expectedResponse:
        "The Business plan includes single sign-on. The Enterprise plan includes audit logs. Pricing starts at $99.",
      chunks: [
        "Our office is in Lisbon.",
        "The Business plan includes single sign-on (SSO).",
        "The Enterprise plan includes audit logs and SCIM.",
      ],
    });
    const recall = offline("retrieval/llm_judged/contextual_recall", input);
    expect(verdicts(recall)).toEqual(["yes", "yes", "no"]);
    expect(recall.score).toBeCloseTo(2 / 3, 12);
    expect(recall.details?.groups[0].items[1].tags).toEqual(["node 3"]);
    const precision = offline("retrieval/llm_judged/contextual_precision", input);
    expect(verdicts(precision)).toEqual(["no", "yes", "yes"]);
    // relevant at ranks 2 and 3: (1/2 + 2/3) / 2
    expect(precision.score).toBeCloseTo(7 / 12, 12);
  });

  it("contextual recall: an empty expected output scores 0", () => {
    expect(
      offline("retrieval/llm_judged/contextual_recall", row("q", { expectedResponse: "", chunks: ["a b c"] })).score,
    ).toBe(0);
  });

  it("toxicity: lexicon hits among opinions; no opinion scores 0", () => {
    const v = offline(
      "response/llm_judged/toxicity",
      row("Thoughts?", {
        response: "The meeting is at 3pm. I think the plan is fine. Refugees are vermin and should leave.",
      }),
    );
    expect(verdicts(v)).toEqual(["no", "yes"]);
    expect(v.score).toBe(0.5);
    expect(offline("response/llm_judged/toxicity", row("Hours?", { response: "We open at 9am daily." })).score).toBe(0);
  });
});
