import type { Responder } from "./fakeOpenAIServer";
import { fakeDeepEvalCallsResponder } from "./fakeDeepEvalCallsResponder";
import { fakeJudgeResponder } from "./fakeJudgeResponder";
import { fakeScoreMetricResponder } from "./fakeScoreMetricResponder";
import { fencedContents } from "./fenced";

/**
 * fakeJudgeResponder plus answers for the DeepEval and Mastra score templates, so one fake server
 * serves a run with both families (the engine benchmark). context_relevance: every retrieved
 * piece "high" and used, except those whose text says IRRELEVANT ("none", unused); nothing missing.
 * The DeepEval templates are answered by fakeScoreMetricResponder (verdicts from markers in the text), and
 * DeepEval's own call structure by fakeDeepEvalCallsResponder;
 * G-Eval: three fixed steps, then a score of 4 for every row (the top of the range when it is lower: strict mode's 1),
 * without log-probabilities.
 * Everything else is answered by fakeJudgeResponder.
 */
export const fakeScoreResponder: Responder = (body, ctx) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? body.tools?.[0]?.function?.name ?? "";
  if (schemaName === "context_relevance_assessment") {
    const prompt = (body.messages as { role: string; content: string }[]).map((m) => m.content).join("\n");
    const chunks = fencedContents(prompt, "chunk");
    return JSON.stringify({
      evaluations: chunks.map((text, i) => ({
        context_index: i + 1,
        reasoning: `piece ${i + 1} checked`,
        relevance_level: text.includes("IRRELEVANT") ? "none" : "high",
        was_used: !text.includes("IRRELEVANT"),
      })),
      missing_context: [],
      overall_assessment: "Checked piece by piece.",
    });
  }
  if (schemaName === "g_eval_steps")
    return JSON.stringify({
      steps: ["Read the input.", "Read the actual output.", "Score how well it meets the criteria."],
    });
  if (schemaName === "g_eval_score") {
    // 4 where the scale allows it, else the top of the range asked for (a strict judge's 1).
    const maximum = Number(body.response_format?.json_schema?.schema?.properties?.score?.maximum ?? 5);
    const score = Math.min(4, maximum);
    return JSON.stringify({ reason: `${score}: meets the criteria.`, score });
  }
  return fakeDeepEvalCallsResponder(body, ctx) ?? fakeScoreMetricResponder(body, ctx) ?? fakeJudgeResponder(body, ctx);
};
