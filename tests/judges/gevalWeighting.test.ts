import { describe, expect, it } from "vitest";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { normaliseScore, probabilityWeightedScore } from "@/lib/judges/geval";

const token = (text: string, top: [string, number][]) => ({
  token: text,
  logprob: Math.log(top.find(([t]) => t === text)?.[1] ?? 1),
  top: top.map(([t, p]) => ({ token: t, logprob: Math.log(p) })),
});

const ONE_TO_FIVE = { min: 1, max: 5 };

describe("G-Eval's probability-weighted score (DeepEval's G-Eval, step 3)", () => {
  it("is Σ p(s)·s over the score tokens at the score's position, renormalised", () => {
    const tokens = [
      token('{"', [['{"', 1]]),
      token("score", [["score", 1]]),
      token('":', [['":', 1]]),
      token("4", [
        ["4", 0.5],
        ["3", 0.3],
        ["5", 0.15],
        ["2", 0.04],
      ]),
    ];
    const weighted = probabilityWeightedScore(tokens, 4, ONE_TO_FIVE);
    // (4·0.5 + 3·0.3 + 5·0.15 + 2·0.04) / 0.99
    expect(weighted?.score).toBeCloseTo(3.73 / 0.99, 12);
    expect(weighted?.probabilities[4]).toBeCloseTo(0.5 / 0.99, 12);
  });

  it("drops alternatives under 1%, tokens off the 1–5 scale and non-numbers; reads spaced tokens", () => {
    const tokens = [
      token(" 2", [
        [" 2", 0.6],
        ["1", 0.3],
        ["9", 0.05],
        ["two", 0.04],
        ["5", 0.009],
      ]),
    ];
    // only 2 (0.6) and 1 (0.3): (1.2 + 0.3) / 0.9
    expect(probabilityWeightedScore(tokens, 2, ONE_TO_FIVE)?.score).toBeCloseTo(1.5 / 0.9, 12);
  });

  it("adds the chosen token when a server leaves it out of its alternatives", () => {
    const tokens = [{ token: "5", logprob: Math.log(0.8), top: [{ token: "4", logprob: Math.log(0.2) }] }];
    expect(probabilityWeightedScore(tokens, 5, ONE_TO_FIVE)?.score).toBeCloseTo(4.8, 12);
  });

  it("is null (the plain score is kept) without log-probabilities or without a token spelling the score", () => {
    expect(probabilityWeightedScore(null, 3, ONE_TO_FIVE)).toBeNull();
    expect(probabilityWeightedScore([token("3", [["3", 1]])], 4, ONE_TO_FIVE)).toBeNull();
    expect(probabilityWeightedScore([{ token: "3", logprob: Math.log(0.001), top: [] }], 3, ONE_TO_FIVE)).toBeNull();
  });

  it("normalises the 1–5 scale onto [0, 1]", () => {
    expect([1, 3, 5].map((score) => normaliseScore(score, ONE_TO_FIVE))).toEqual([0, 0.5, 1]);
  });

  it("validates a definition: parameters from DeepEval's five, each once; threshold defaults to 0.5", () => {
    const ok = gEvalDefinitionSchema.parse({
      name: "coherence",
      criteria: "Coherent.",
      evaluationParams: ["actual_output"],
    });
    expect(ok.threshold).toBe(0.5);
    expect(gEvalDefinitionSchema.safeParse({ ...ok, evaluationParams: ["output"] }).success).toBe(false);
    expect(gEvalDefinitionSchema.safeParse({ ...ok, evaluationParams: ["input", "input"] }).success).toBe(false);
    expect(gEvalDefinitionSchema.safeParse({ ...ok, evaluationParams: [] }).success).toBe(false);
    expect(gEvalDefinitionSchema.safeParse({ ...ok, name: "Has Spaces" }).success).toBe(false);
  });
});
