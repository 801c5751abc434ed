import { rowVerdictFromChunks } from "../chunkPrecision";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import { FENCE_RULE, fence } from "./fence";
import {
  binaryAnswerSchema,
  binaryVerdict,
  chunkVerdictsSchema,
  type BinaryAnswer,
  type ChunkVerdictsAnswer,
} from "./outputSchemas";
import type { PerChunkTemplate, PromptTemplate } from "./promptTemplate";
import { BINARY_ANSWER_RULE, chunksSection, conversationSection, groundTruthSection } from "./sections";

/** Judges of the retrieval (Agent Evaluation's "retrieval judges"). */
const CHUNK_RELEVANCE_RULES = [
  "You grade whether retrieved chunks are relevant to the user's request.",
  "A chunk is relevant (yes) when it contains information that helps answer the request. It is not relevant (no) when it is about something else, even if it shares words with the request.",
];

/** A per-chunk answer as a verdict: one rating per chunk, and precision = relevant chunks / all chunks (Agent Evaluation's judge reference). */
export function chunkVerdicts(answer: ChunkVerdictsAnswer): JudgeVerdict {
  return rowVerdictFromChunks(
    answer.verdicts.map((verdict, position) => ({
      position,
      rating: verdict.rating,
      rationale: verdict.rationale,
      errorMessage: null,
    })),
  );
}

/**
 * The Databricks way: one call per chunk. Context: the chunk's position. Also
 * the fallback when a row's batched answer stays malformed after its repair.
 */
export const chunkRelevanceSingle: PromptTemplate<BinaryAnswer, { position: number }> = {
  version: "chunk_relevance.single/v4",
  schemaName: "chunk_relevance_verdict",
  schema: () => binaryAnswerSchema,
  system: [...CHUNK_RELEVANCE_RULES, FENCE_RULE, BINARY_ANSWER_RULE].join("\n"),
  render: (input, { position }) => {
    const chunk = input.retrievedContext[position];
    return [conversationSection(input), fence("chunk", chunk?.content ?? "", { doc_uri: chunk?.docUri ?? "" })].join(
      "\n\n",
    );
  },
  toVerdict: binaryVerdict,
};

/** Default: every chunk of a row judged in one call that returns one verdict per chunk. */
export const chunkRelevanceBatched: PerChunkTemplate<ChunkVerdictsAnswer> = {
  version: "chunk_relevance.batched/v4",
  schemaName: "chunk_relevance_verdicts",
  perChunk: true,
  singleChunk: chunkRelevanceSingle,
  schema: (input) => chunkVerdictsSchema(input.retrievedContext.length),
  system: [
    ...CHUNK_RELEVANCE_RULES,
    "Judge each chunk on its own.",
    FENCE_RULE,
    'Answer with JSON only: {"verdicts": [{"chunk_index": 1, "rationale": "...", "rating": "yes" | "no"}, ...]}, one entry per chunk, in order.',
  ].join("\n"),
  render: (input) => [conversationSection(input), chunksSection(input)].join("\n\n"),
  toVerdict: chunkVerdicts,
};

export const contextSufficiency: PromptTemplate<BinaryAnswer> = {
  version: "context_sufficiency/v4",
  schemaName: "context_sufficiency_verdict",
  schema: () => binaryAnswerSchema,
  system: [
    "You grade whether the retrieved context is sufficient to produce the expected response (or to state every expected fact).",
    "Rate yes when the chunks, taken together, contain all the information the expected response needs.",
    "Rate no when some needed information is missing from the chunks; the rationale must say which information is missing.",
    FENCE_RULE,
    BINARY_ANSWER_RULE,
  ].join("\n"),
  render: (input) => [conversationSection(input), chunksSection(input), groundTruthSection(input)].join("\n\n"),
  toVerdict: binaryVerdict,
};
