import { describe, expect, it } from "vitest";
import { gEvalFromText } from "@/lib/judges/geval/definitionText";
import { changedDeepEvalSettings, deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { metricSettingsText } from "@/lib/metrics/metricSettingsText";
import { strictScore, strictThresholds } from "@/lib/metrics/strictMode";
import { readDeepEvalFields } from "@/lib/server/runForm/deepEvalFormFields";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
};

describe("DeepEval's options", () => {
  it("default as DeepEval's do, and a run stores only what differs", () => {
    expect(deepEvalSettings(undefined)).toEqual({
      exact: false,
      strictMode: false,
      includeReason: true,
      penalizeAmbiguousClaims: false,
      summarizationQuestions: 5,
      assessmentQuestions: null,
      listCap: 40,
      callStructure: "folded",
      truthsExtractionLimit: null,
    });
    expect(changedDeepEvalSettings({ strictMode: false, includeReason: true, listCap: 40 })).toEqual({});
    expect(changedDeepEvalSettings({ includeReason: false, listCap: 25 })).toEqual({
      includeReason: false,
      listCap: 25,
    });
  });

  it("strict mode: 1 or 0 per DeepEval metric and G-Eval; Mastra and the statistical scorers have none", () => {
    expect(
      strictThresholds([
        "response/llm_judged/faithfulness",
        "response/llm_judged/bias",
        "response/llm_judged/g_eval/coherence",
        "retrieval/llm_judged/context_relevance",
        "response/statistical/bleu",
        "response/llm_judged/correctness",
      ]),
    ).toEqual({
      "response/llm_judged/faithfulness": 1,
      "response/llm_judged/bias": 0,
      "response/llm_judged/g_eval/coherence": 1,
    });
    expect([0.99, 1, 0].map((s) => strictScore("response/llm_judged/faithfulness", s))).toEqual([0, 1, 0]);
    expect([0.01, 0, 1].map((s) => strictScore("response/llm_judged/toxicity", s))).toEqual([1, 0, 1]);
  });

  it("are read from the run form only when it showed them; an unchecked box is off", () => {
    expect(readDeepEvalFields(form({}))).toEqual({ ok: true });
    expect(
      readDeepEvalFields(
        form({
          "deepEval:shown": "1",
          "deepEval:strictMode": "on",
          "deepEval:listCap": "30",
          "deepEval:summarizationQuestions": "6",
          "deepEval:assessmentQuestions": "Is the price named?\n\n  Is the plan named?  \n",
        }),
      ),
    ).toEqual({
      ok: true,
      settings: {
        strictMode: true,
        includeReason: false,
        penalizeAmbiguousClaims: false,
        listCap: 30,
        summarizationQuestions: 6,
        assessmentQuestions: ["Is the price named?", "Is the plan named?"],
      },
    });
    expect(
      readDeepEvalFields(
        form({
          "deepEval:shown": "1",
          "deepEval:includeReason": "on",
          "deepEval:callStructure": "deepeval",
          "deepEval:truthsExtractionLimit": "12",
        }),
      ),
    ).toEqual({
      ok: true,
      settings: {
        strictMode: false,
        includeReason: true,
        penalizeAmbiguousClaims: false,
        callStructure: "deepeval",
        truthsExtractionLimit: 12,
      },
    });
    // The calls select's DeepEval-exact choice is its own setting; the form shows no list cap with it.
    expect(
      readDeepEvalFields(
        form({ "deepEval:shown": "1", "deepEval:includeReason": "on", "deepEval:callStructure": "exact" }),
      ),
    ).toEqual({
      ok: true,
      settings: { exact: true, strictMode: false, includeReason: true, penalizeAmbiguousClaims: false },
    });
    expect(readDeepEvalFields(form({ "deepEval:shown": "1", "deepEval:listCap": "2" }))).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^List cap: /)],
    });
  });

  it("DeepEval-exact: DeepEval's calls and no list cap, stored as the one setting; refused beside folded calls or a cap", () => {
    expect(deepEvalSettings({ exact: true })).toMatchObject({
      exact: true,
      callStructure: "deepeval",
      listCap: Number.POSITIVE_INFINITY,
    });
    expect(changedDeepEvalSettings({ exact: true, callStructure: "deepeval" })).toEqual({ exact: true });
    expect(metricSettingsText({ metrics: ["response/llm_judged/faithfulness"], deepEval: { exact: true } })).toEqual([
      "DeepEval: DeepEval-exact (DeepEval's own calls, no list cap), strict_mode off, include_reason on, penalize_ambiguous_claims off",
    ]);
    expect(
      readDeepEvalFields(form({ "deepEval:shown": "1", "deepEval:callStructure": "exact", "deepEval:listCap": "20" })),
    ).toEqual({
      ok: false,
      errors: ["List cap: DeepEval-exact has no list cap, as DeepEval has none"],
    });
  });

  it("are said in the run page's header, all of them, when the run has a DeepEval metric", () => {
    expect(
      metricSettingsText({
        metrics: ["response/llm_judged/faithfulness", "response/llm_judged/summarization"],
        deepEval: { strictMode: true, assessmentQuestions: ["Q?"] },
      }),
    ).toEqual([
      "DeepEval: folded calls, strict_mode on, include_reason on, list cap 40, penalize_ambiguous_claims off, summarization: 1 assessment questions of the run's own",
    ]);
    expect(metricSettingsText({ metrics: ["response/llm_judged/correctness"] })).toEqual([]);
    // The offline judge makes no calls and writes no reasons: only what changes its scores is said.
    expect(
      metricSettingsText(
        { metrics: ["response/llm_judged/faithfulness"], deepEval: { penalizeAmbiguousClaims: true } },
        { offline: true },
      ),
    ).toEqual(["DeepEval: strict_mode off, penalize_ambiguous_claims on"]);
  });
});

describe("a G-Eval judge as typed in the run form", () => {
  it("reads steps and rubric one per line, and names the field of each problem", () => {
    const parsed = gEvalFromText({
      name: "helpful",
      criteria: "",
      steps: "Check it answers.\n\nCheck nothing is invented.\n",
      evaluationParams: ["input", "actual_output"],
      scale: "0-10",
      rubric: "0-4: misses it\n5 to 9: partly\n10: fully",
      threshold: 0.7,
    });
    expect(parsed).toEqual({
      definition: {
        name: "helpful",
        evaluationSteps: ["Check it answers.", "Check nothing is invented."],
        evaluationParams: ["input", "actual_output"],
        scale: "0-10",
        rubric: [
          { scoreRange: [0, 4], expectedOutcome: "misses it" },
          { scoreRange: [5, 9], expectedOutcome: "partly" },
          { scoreRange: [10, 10], expectedOutcome: "fully" },
        ],
        threshold: 0.7,
      },
    });
    expect(
      gEvalFromText({ name: "x", criteria: "c", evaluationParams: ["input"], scale: "1-5", rubric: "1-2: low\nhigh" }),
    ).toEqual({ problems: ['rubric: line 2 "high": write "from-to: expected outcome", e.g. "7-9: mostly right"'] });
    expect(gEvalFromText({ name: "x", criteria: "c", evaluationParams: ["output"] })).toEqual({
      problems: [
        "params: each must be one of input, actual_output, expected_output, retrieval_context, context, metadata, tags, expected_tools, tools_called",
      ],
    });
  });
});
