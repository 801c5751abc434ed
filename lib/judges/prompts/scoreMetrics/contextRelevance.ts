import { z } from "zod";
import { contextRelevanceSettings } from "@/lib/contract/contextRelevanceSettings";
import { computeContextRelevance, RELEVANCE_LEVELS, type RelevanceLevel } from "@/lib/metrics/contextRelevanceScore";
import type { ScoreMetricSettings } from "../../judgeBackend";
import type { DetailItem, JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../../types";
import { FENCE_RULE } from "../fence";
import type { PromptTemplate } from "../promptTemplate";
import { chunksSection, conversationSection, responseSection } from "../sections";

/**
 * Mastra's context relevance scorer: one call rates every retrieved piece
 * high / medium / low / none, says whether the response used it, and lists the
 * information that was missing; the score is computed from those verdicts by
 * computeContextRelevance with the run's penalties and scale (not by the model), and
 * the reason comes in the same answer (Mastra spends a second call on it).
 * Penalties and scale are not part of the prompt, so changing them re-scores cached answers.
 */
const evaluationSchema = z.strictObject({
  context_index: z.number().int().min(1),
  reasoning: z.string().min(1),
  relevance_level: z.enum(RELEVANCE_LEVELS as [RelevanceLevel, ...RelevanceLevel[]]),
  was_used: z.boolean(),
});

const schemas = new Map<number, ReturnType<typeof buildSchema>>();
function buildSchema(count: number) {
  return z
    .strictObject({
      evaluations: z.array(evaluationSchema).length(count),
      missing_context: z.array(z.string().min(1)),
      overall_assessment: z.string().min(1),
    })
    .refine((answer) => answer.evaluations.every((e, i) => e.context_index === i + 1), {
      message: `evaluations must list context_index 1 to ${count} exactly once, in order`,
    });
}
/** One schema per piece count, memoised (the client caches a schema's JSON form by identity). */
function contextRelevanceSchema(count: number) {
  let schema = schemas.get(count);
  if (!schema) schemas.set(count, (schema = buildSchema(count)));
  return schema;
}

export type ContextRelevanceAnswer = z.infer<ReturnType<typeof buildSchema>>;

const SYSTEM = [
  "You assess how relevant and useful each piece of provided context was for the response an AI assistant gave to the user's request.",
  "For every context piece, in order, give its relevance to the request:",
  '- "high": it directly addresses the request;',
  '- "medium": it gives supporting information;',
  '- "low": it is only tangentially related;',
  '- "none": it is unrelated to the request.',
  "Also say whether the response actually used the piece (its information appears in the response, however phrased).",
  "Then list the information that is missing from the context and would have been needed to answer the request well (an empty list when nothing important is missing). List only real gaps, each once.",
  "Finally, give a short overall assessment in one or two sentences.",
  FENCE_RULE,
  'Answer with JSON only: {"evaluations": [{"context_index": 1, "reasoning": "...", "relevance_level": "high" | "medium" | "low" | "none", "was_used": true | false}, ...], "missing_context": ["..."], "overall_assessment": "..."}, one evaluation per context piece, in order.',
].join("\n");

export const contextRelevance: PromptTemplate<ContextRelevanceAnswer, ScoreMetricSettings | undefined> = {
  version: "context_relevance/v2",
  schemaName: "context_relevance_assessment",
  schema: (input) => contextRelevanceSchema(input.retrievedContext.length),
  system: SYSTEM,
  render: (input) => [conversationSection(input), responseSection(input), chunksSection(input)].join("\n\n"),
  toVerdict: (answer, input, settings) => contextRelevanceVerdict(answer, input, settings),
};

export function contextRelevanceVerdict(
  answer: ContextRelevanceAnswer,
  input: JudgeInput,
  settings?: ScoreMetricSettings,
): JudgeVerdict {
  const config = contextRelevanceSettings(settings?.contextRelevance);
  const pieces = answer.evaluations.map((e) => ({ level: e.relevance_level, used: e.was_used }));
  const result = computeContextRelevance(pieces, answer.missing_context.length, config);
  const counts = RELEVANCE_LEVELS.map((level) => [level, pieces.filter((p) => p.level === level).length] as const)
    .filter(([, count]) => count > 0)
    .map(([level, count]) => `${count} ${level}`);
  const items: DetailItem[] = answer.evaluations.map((e, i) => ({
    text: input.retrievedContext[i]?.content ?? "",
    verdict: e.relevance_level,
    reason: e.reasoning,
    tags: [`context ${i + 1}`, e.was_used ? "used in the response" : "not used"],
  }));
  const parts = [
    `${pieces.length} context piece${pieces.length === 1 ? "" : "s"} (${counts.join(", ")}), base ${result.base.toFixed(2)}`,
    `${result.unusedHighRelevance} highly relevant piece${result.unusedHighRelevance === 1 ? "" : "s"} unused (penalty ${result.usagePenalty.toFixed(2)})`,
    `${result.missingCount} missing item${result.missingCount === 1 ? "" : "s"} (penalty ${result.missingPenalty.toFixed(2)})`,
  ];
  return {
    rating: null,
    score: result.score,
    rationale: `The score is ${result.score} because: ${parts.join("; ")}${config.scale === 1 ? "" : `; scale ${config.scale}`}. ${answer.overall_assessment}`,
    errorMessage: null,
    details: {
      groups: [
        { title: "Context pieces", items },
        { title: "Missing information", items: answer.missing_context.map((text) => ({ text, verdict: "missing" })) },
      ],
      figures: {
        base: result.base,
        usage_penalty: result.usagePenalty,
        missing_penalty: result.missingPenalty,
        unused_high_relevance: result.unusedHighRelevance,
        missing_count: result.missingCount,
        unusedHighRelevanceContext: config.unusedHighRelevanceContext,
        missingContextPerItem: config.missingContextPerItem,
        maxMissingContextPenalty: config.maxMissingContextPenalty,
        scale: config.scale,
      },
    },
  };
}
