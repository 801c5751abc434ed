import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import { FENCE_RULE, fence } from "./fence";
import {
  binaryAnswerSchema,
  binaryVerdict,
  chunkVerdictsSchema,
  type BinaryAnswer,
  type ChunkVerdictsAnswer,
} from "./outputSchemas";
import type { PerChunkTemplate, PromptTemplate } from "./promptTemplate";
import { chunkVerdicts } from "./retrievalTemplates";
import { BINARY_ANSWER_RULE, chunksSection, conversationSection, responseSection } from "./sections";

/**
 * Custom judges (Agent Evaluation's custom ANSWER and RETRIEVAL judges): the user's instructions are the grading criteria.
 * They are trusted text from the run form, so they go in the system prompt;
 * the judged content stays fenced. The instructions are part of the rendered
 * prompt, so editing them changes the prompt hash and never hits a stale cache.
 */
export const customAnswer: PromptTemplate<BinaryAnswer, CustomJudgeDefinition> = {
  version: "custom.answer/v4",
  schemaName: "custom_answer_verdict",
  schema: () => binaryAnswerSchema,
  system: "",
  render: (input) => [conversationSection(input), responseSection(input)].join("\n\n"),
  toVerdict: binaryVerdict,
};

/** One call per chunk for a custom RETRIEVAL judge: per_chunk runs, and the fallback from a malformed batched answer. */
export const customRetrievalSingle: PromptTemplate<BinaryAnswer, { position: number }> = {
  version: "custom.retrieval.single/v3",
  schemaName: "custom_retrieval_verdict",
  schema: () => binaryAnswerSchema,
  system: "",
  render: (input, { position }) => {
    const chunk = input.retrievedContext[position];
    return [conversationSection(input), fence("chunk", chunk?.content ?? "", { doc_uri: chunk?.docUri ?? "" })].join(
      "\n\n",
    );
  },
  toVerdict: binaryVerdict,
};

export const customRetrieval: PerChunkTemplate<ChunkVerdictsAnswer, CustomJudgeDefinition> = {
  version: "custom.retrieval/v4",
  schemaName: "custom_retrieval_verdicts",
  perChunk: true,
  singleChunk: customRetrievalSingle,
  schema: (input) => chunkVerdictsSchema(input.retrievedContext.length),
  system: "",
  render: (input) => [conversationSection(input), chunksSection(input)].join("\n\n"),
  toVerdict: chunkVerdicts,
};

/** The judge's system prompt: its criteria, and the answer shape of the template it runs with. */
export function customSystemPrompt(definition: CustomJudgeDefinition, options: { singleChunk?: boolean } = {}): string {
  const subject =
    definition.assessmentType === "ANSWER"
      ? "an AI assistant's response"
      : options.singleChunk
        ? "one retrieved chunk"
        : "each retrieved chunk";
  const answerRule =
    definition.assessmentType === "ANSWER" || options.singleChunk
      ? BINARY_ANSWER_RULE
      : 'Answer with JSON only: {"verdicts": [{"chunk_index": 1, "rationale": "...", "rating": "yes" | "no"}, ...]}, one entry per chunk, in order.';
  return [
    `You are the "${definition.assessmentName}" judge. Grade ${subject} against these criteria, written by the evaluation's author:`,
    "<criteria>",
    definition.instructions,
    "</criteria>",
    "Rate yes when the criteria are met, no otherwise.",
    FENCE_RULE,
    answerRule,
  ].join("\n");
}
