import { describe, expect, it } from "vitest";
import { EVAL_USAGE, parseEvalArgs } from "@/lib/cli/evalArgs";
import { DEFAULT_METRICS } from "@/lib/metrics/metricNames";
import { baseArgs, usageError } from "../support/evalArgsKit";

// --g-eval defines a custom G-Eval judge on the command line exactly as the
// run form does: the same zod schema, the same metric name and threshold.

describe("--g-eval", () => {
  it("parses a definition into the run form's G-Eval definition; criteria may hold semicolons", () => {
    const args = parseEvalArgs([
      ...baseArgs,
      "--judges",
      "faithfulness",
      "--g-eval",
      "name=coherence;criteria=Each sentence follows from the last; no jumps.;params=input, actual_output;threshold=0.6",
      "--g-eval",
      "name=grounded_tone;criteria=Polite.;params=actual_output,retrieval_context",
    ]);
    expect(args.gEvalJudges).toEqual([
      {
        name: "coherence",
        criteria: "Each sentence follows from the last; no jumps.",
        evaluationParams: ["input", "actual_output"],
        scale: "1-5",
        threshold: 0.6,
      },
      {
        name: "grounded_tone",
        criteria: "Polite.",
        evaluationParams: ["actual_output", "retrieval_context"],
        scale: "1-5",
        threshold: 0.5,
      },
    ]);
    expect(args.metrics).toEqual(["response/llm_judged/faithfulness"]);
  });

  it("alone, runs only the G-Eval judges; without it --judges still defaults to every Databricks judge", () => {
    const args = parseEvalArgs([...baseArgs, "--g-eval", "name=coherence;criteria=Clear.;params=actual_output"]);
    expect([args.metrics, args.gEvalJudges.map((j) => j.name)]).toEqual([[], ["coherence"]]);
    expect(parseEvalArgs(baseArgs).metrics).toEqual(DEFAULT_METRICS);
    expect(parseEvalArgs(baseArgs).gEvalJudges).toEqual([]);
  });

  it("names what is wrong with a bad definition", () => {
    const bad = (definition: string) => usageError([...baseArgs, "--g-eval", definition]);
    expect(bad("name=Coherence;criteria=Clear.;params=actual_output")).toMatch(
      /^--g-eval "name=Coherence;.*": name: use lower-case letters, digits and underscores, starting with a letter$/,
    );
    expect(bad("name=c;criteria=Clear.;params=actual_output,answer")).toContain(
      "params: each must be one of input, actual_output, expected_output, retrieval_context, context, metadata, tags, expected_tools, tools_called",
    );
    expect(bad("name=c;criteria=Clear.;params=input,input")).toContain("params: list each parameter once");
    expect(bad("name=c;criteria=Clear.")).toContain("missing params");
    expect(bad("name=c;criteria=Clear.;params=input;threshold=1.5")).toContain("threshold: ");
    expect(bad("name=c;criteria=Clear.;params=input;threshold=high")).toContain(
      "threshold must be a number from 0 to 1",
    );
    expect(bad("name=c;criteria= ;params=input")).toContain("criteria: ");
    expect(bad("coherence")).toContain(
      'expected name=…;criteria=…;steps=…;params=…;scale=…;rubric=…;threshold=…, got "coherence"',
    );
    expect(bad("name=c;name=d;criteria=x;params=input")).toContain("name is given twice");
    expect(
      usageError([
        ...baseArgs,
        "--g-eval",
        "name=c;criteria=x;params=input",
        "--g-eval",
        "name=c;criteria=y;params=input",
      ]),
    ).toContain('two judges are named "c"');
  });

  it("takes written steps, the 0–10 scale and a rubric, as DeepEval's GEval does", () => {
    const args = parseEvalArgs([
      ...baseArgs,
      "--g-eval",
      "name=helpful;steps=Check it answers.|Check nothing is invented.;params=input,actual_output;scale=0-10;rubric=8-10: fully answered|0-3: misses it|4-7: partly",
    ]);
    expect(args.gEvalJudges).toEqual([
      {
        name: "helpful",
        evaluationSteps: ["Check it answers.", "Check nothing is invented."],
        evaluationParams: ["input", "actual_output"],
        scale: "0-10",
        rubric: [
          { scoreRange: [8, 10], expectedOutcome: "fully answered" },
          { scoreRange: [0, 3], expectedOutcome: "misses it" },
          { scoreRange: [4, 7], expectedOutcome: "partly" },
        ],
        threshold: 0.5,
      },
    ]);
    const bad = (definition: string) => usageError([...baseArgs, "--g-eval", definition]);
    expect(bad("name=c;criteria=x;params=input;scale=1-10")).toContain("scale: must be one of 1-5, 0-10");
    expect(bad("name=c;criteria=x;params=input;rubric=good")).toContain(
      'rubric: line 1 "good": write "from-to: expected outcome"',
    );
    expect(bad("name=c;criteria=x;params=input;rubric=1-3: low|3-5: high")).toContain(
      "rubric: score ranges 1-3 and 3-5 overlap",
    );
    expect(bad("name=c;params=input")).toContain("criteria: give the criteria, the evaluation steps, or both");
  });

  it("is documented in the usage text", () => {
    expect(EVAL_USAGE).toContain("--g-eval DEFINITION");
    expect(EVAL_USAGE).toContain("response/llm_judged/g_eval/<name>");
  });
});
