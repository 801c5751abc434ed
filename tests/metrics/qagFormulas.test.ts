import { describe, expect, it } from "vitest";
import {
  answerRelevancyScore,
  contextualPrecisionScore,
  contextualRecallScore,
  contextualRelevancyScore,
  faithfulnessScore,
  hallucinationScore,
  harmfulOpinionScore,
  summarizationScores,
} from "@/lib/metrics/qag/formulas";

// Hand-computed verdict sets; the edge cases follow DeepEval's `_calculate_score` of each metric.

describe("faithfulness = (yes + idk) / claims", () => {
  it("counts idk as faithful and only no against", () => {
    expect(faithfulnessScore(["yes", "no", "idk", "yes"])).toBe(3 / 4);
    expect(faithfulnessScore(["no", "no", "yes"])).toBeCloseTo(1 / 3, 12);
  });
  it("all idk (the context says nothing either way) is 1; no claims is 1", () => {
    expect(faithfulnessScore(["idk", "idk", "idk"])).toBe(1);
    expect(faithfulnessScore([])).toBe(1);
  });
});

describe("answer_relevancy = relevant / statements", () => {
  it("counts idk (ambiguous) as relevant", () => {
    expect(answerRelevancyScore(["yes", "no", "no", "idk", "yes"])).toBe(3 / 5);
    expect(answerRelevancyScore(["idk", "idk"])).toBe(1);
  });
  it("no statements is 1", () => {
    expect(answerRelevancyScore([])).toBe(1);
  });
});

describe("contextual_precision = Σ_k (relevant_k × precision@k) / relevant nodes", () => {
  it("rewards relevant nodes ranked early", () => {
    expect(contextualPrecisionScore(["yes", "no"])).toBe(1);
    expect(contextualPrecisionScore(["no", "yes"])).toBe(0.5);
    // relevant at ranks 1, 3, 4: (1/1 + 2/3 + 3/4) / 3 = 29/36
    expect(contextualPrecisionScore(["yes", "no", "yes", "yes"])).toBeCloseTo(29 / 36, 12);
    // relevant at ranks 2, 3: (1/2 + 2/3) / 2 = 7/12
    expect(contextualPrecisionScore(["no", "yes", "yes", "no"])).toBeCloseTo(7 / 12, 12);
    expect(contextualPrecisionScore(["yes", "yes", "yes"])).toBe(1);
  });
  it("no retrieval context, or no relevant node, is 0", () => {
    expect(contextualPrecisionScore([])).toBe(0);
    expect(contextualPrecisionScore(["no", "no"])).toBe(0);
  });
});

describe("contextual_recall = attributable sentences / sentences", () => {
  it("counts the expected output's sentences some node supports", () => {
    expect(contextualRecallScore(["yes", "no", "yes"])).toBeCloseTo(2 / 3, 12);
    expect(contextualRecallScore(["no"])).toBe(0);
  });
  it("an empty expected output (no sentences) is 0", () => {
    expect(contextualRecallScore([])).toBe(0);
  });
});

describe("contextual_relevancy = relevant statements / statements, over all nodes", () => {
  it("pools the statements of every node (not an average of node ratios)", () => {
    // node 1: 1 of 1, node 2: 1 of 3 → 2 / 4, not (1 + 1/3) / 2
    expect(contextualRelevancyScore([["yes"], ["yes", "no", "no"]])).toBe(0.5);
  });
  it("no retrieval context, or nodes without statements, is 0", () => {
    expect(contextualRelevancyScore([])).toBe(0);
    expect(contextualRelevancyScore([[], []])).toBe(0);
  });
});

describe("hallucination = contradicted ideal-context items / items (lower is better)", () => {
  it("counts the items the output contradicts", () => {
    expect(hallucinationScore(["yes", "no", "yes", "yes"])).toBe(0.25);
    expect(hallucinationScore(["no", "no"])).toBe(1);
  });
  it("no context items is 0", () => {
    expect(hallucinationScore([])).toBe(0);
  });
});

describe("toxicity / bias = harmful opinions / opinions (lower is better)", () => {
  it("counts the opinions judged toxic (biased)", () => {
    expect(harmfulOpinionScore(["yes", "no", "no"])).toBeCloseTo(1 / 3, 12);
  });
  it("no opinions is 0", () => {
    expect(harmfulOpinionScore([])).toBe(0);
  });
});

describe("summarization = min(alignment, coverage)", () => {
  it("alignment counts only supported claims (idk, an invention, counts against); coverage the source-yes questions the summary answers yes", () => {
    const scores = summarizationScores(
      ["yes", "yes", "idk", "no"],
      [
        { source: "yes", summary: "yes" },
        { source: "yes", summary: "idk" },
        { source: "yes", summary: "yes" },
        { source: "no", summary: "yes" }, // the source does not answer yes: not counted
        { source: "yes", summary: "no" },
      ],
    );
    expect(scores).toEqual({ alignment: 0.5, coverage: 0.5, score: 0.5 });
    expect(
      summarizationScores(
        ["yes", "yes"],
        [
          { source: "yes", summary: "no" },
          { source: "yes", summary: "yes" },
        ],
      ),
    ).toEqual({ alignment: 1, coverage: 0.5, score: 0.5 });
  });
  it("all idk claims give alignment 0; no claims or no answerable question give 0", () => {
    expect(summarizationScores(["idk", "idk"], [{ source: "yes", summary: "yes" }]).score).toBe(0);
    expect(summarizationScores([], [{ source: "yes", summary: "yes" }])).toEqual({
      alignment: 0,
      coverage: 1,
      score: 0,
    });
    expect(summarizationScores(["yes"], [{ source: "idk", summary: "yes" }])).toEqual({
      alignment: 1,
      coverage: 0,
      score: 0,
    });
  });
});
