import { SCORE_METRIC_TEMPLATES } from "@/lib/judges/prompts/scoreMetrics";
import { describe, expect, it } from "vitest";
import { METRICS } from "@/lib/contract/metricCatalog";
import { templateForMetric } from "@/lib/judges/prompts/templateForMetric";
import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeInput } from "@/lib/judges/types";

const input: JudgeInput = {
  messages: [{ role: "user", content: "How do I rotate keys?" }],
  request: "How do I rotate keys?",
  response: "In the console.",
  expectedResponse: "In the console.",
  expectedFacts: null,
  retrievedContext: [
    { content: "Rotate keys in the console.", docUri: "a" },
    { content: "Billing.", docUri: "b" },
  ],
};
const twoChunkAnswer = { verdicts: [1, 2].map((chunk_index) => ({ chunk_index, rationale: "r", rating: "yes" })) };
const retrievalJudge: CustomJudgeDefinition = {
  assessmentName: "mentions_keys",
  assessmentType: "RETRIEVAL",
  instructions: "The chunk mentions access keys.",
};
const answerJudge: CustomJudgeDefinition = {
  assessmentName: "polite",
  assessmentType: "ANSWER",
  instructions: "The response is polite and brief.",
};

describe("per-chunk judges say so in their template", () => {
  it("flags exactly the templates that answer one verdict per chunk, each with its one-chunk prompt", () => {
    const chosen = [
      // Every Databricks LLM judge, and every score metric whose template is registered (the others have none yet).
      ...METRICS.filter(
        (metric) =>
          metric.kind === "llm_judged" && (metric.family === "databricks" || SCORE_METRIC_TEMPLATES[metric.name]),
      ).map((metric) => ({
        name: metric.name,
        found: templateForMetric(metric.name, input),
      })),
      {
        name: "custom RETRIEVAL",
        found: templateForMetric("retrieval/llm_judged/mentions_keys", input, retrievalJudge),
      },
      { name: "custom ANSWER", found: templateForMetric("response/llm_judged/polite", input, answerJudge) },
    ];
    for (const { name, found } of chosen) {
      if (!found) throw new Error(`no template for ${name}`);
      const answersPerChunk = found.template.schema(input, found.context).safeParse(twoChunkAnswer).success;
      expect({ name, perChunk: found.template.perChunk === true }).toEqual({ name, perChunk: answersPerChunk });
      if (found.template.perChunk)
        expect(
          found.template.singleChunk.schema(input, { position: 0 }).safeParse({ rationale: "r", rating: "no" }).success,
        ).toBe(true);
    }
    expect(chosen.filter(({ found }) => found?.template.perChunk).map(({ name }) => name)).toEqual([
      "retrieval/llm_judged/chunk_relevance",
      "custom RETRIEVAL",
    ]);
  });

  it("keeps the version strings (they are judge-cache keys), and a custom judge's one-chunk prompt carries its criteria", () => {
    const builtIn = templateForMetric("retrieval/llm_judged/chunk_relevance", input);
    const custom = templateForMetric("retrieval/llm_judged/mentions_keys", input, retrievalJudge);
    if (!builtIn?.template.perChunk || !custom?.template.perChunk) throw new Error("expected per-chunk templates");
    expect([builtIn.template.version, builtIn.template.singleChunk.version]).toEqual([
      "chunk_relevance.batched/v4",
      "chunk_relevance.single/v4",
    ]);
    expect([custom.template.version, custom.template.singleChunk.version]).toEqual([
      "custom.retrieval/v4",
      "custom.retrieval.single/v3",
    ]);
    expect(custom.template.singleChunk.system).toContain("The chunk mentions access keys.");
    expect(custom.template.singleChunk.system).toContain("one retrieved chunk");
  });
});
