import { z } from "zod";
import type { PromptCall } from "../prompts/promptTemplate";
import { fence, FENCE_RULE } from "../prompts/fence";
import {
  actualOutputSection,
  itemText,
  jsonOnly,
  memoByKey,
  retrievalContextSection,
  upToCap,
} from "../prompts/scoreMetrics/shared";

/**
 * The extraction calls of DeepEval's call structure: each reads one text and lists what it states
 * (truths, claims, statements, opinions), seeing nothing else, as DeepEval's own calls do. A claim
 * extracted from the actual output alone is worded as the output words it, not as the context would.
 * Our words for DeepEval's intent; the list cap and the truths limit are the run's.
 *
 * `limit`: truths_extraction_limit, which DeepEval asks for per document ("the N most important … truths per
 * document"), so the list may hold `limit` truths for each of `documents` (the retrieval context's chunks; a
 * summary's source text is one).
 */
export type ExtractionContext = { listCap: number; limit?: number | null; documents?: number };

/** The most items the answer may list: the truths limit for every document, else the list cap. */
const mostItems = (context: ExtractionContext) =>
  context.limit ? context.limit * Math.max(1, context.documents ?? 1) : context.listCap;

const listSchema = memoByKey((key: string, listCap: number) =>
  z.strictObject({ [key]: upToCap(z.array(itemText), listCap) } as Record<string, z.ZodArray<typeof itemText>>),
);
export type ExtractedList = Record<string, string[]>;

function extraction(args: {
  version: string;
  key: string;
  lines: string[];
  render: PromptCall<ExtractedList, ExtractionContext>["render"];
  limitLine?: (limit: number) => string;
}): PromptCall<ExtractedList, ExtractionContext> {
  return {
    version: args.version,
    schemaName: `deepeval_${args.key}`,
    schema: (_input, context) => listSchema(args.key, mostItems(context)),
    system: (context) =>
      [
        ...args.lines,
        ...(args.limitLine && context.limit ? [args.limitLine(context.limit)] : []),
        FENCE_RULE,
        jsonOnly(mostItems(context)),
        `{"${args.key}": ["...", "..."]}`,
      ].join("\n"),
    render: args.render,
  };
}

const limitLine = (limit: number) =>
  limit === 1
    ? "List only the single most important truth per document."
    : `List only the ${limit} most important truths per document.`;

/** Faithfulness's truths: what the retrieval context states. */
export const truthsFromContext = extraction({
  version: "deepeval_calls.truths/v1",
  key: "truths",
  lines: [
    "List the factual truths the retrieval context states, each a self-contained sentence, as the context says it.",
    "Take nothing from your own knowledge.",
  ],
  limitLine,
  render: (input) => retrievalContextSection(input),
});

/** Summarization's truths: what the source text states. */
export const truthsFromSource = extraction({
  version: "deepeval_calls.source_truths/v1",
  key: "truths",
  lines: [
    "List the factual truths the source text states, each a self-contained sentence, as the text says it.",
    "Take nothing from your own knowledge.",
  ],
  limitLine,
  render: (input) => fence("source_text", input.request),
});

/** Claims of the actual output, read alone (no context: DeepEval extracts them from the output only). */
export const claimsFromOutput = extraction({
  version: "deepeval_calls.claims/v1",
  key: "claims",
  lines: [
    "List every factual claim the actual output makes, each a self-contained sentence, as the output says it.",
    "Leave out greetings, opinions and questions. Do not add anything the output does not say.",
  ],
  render: (input) => actualOutputSection(input),
});

/** Answer relevancy's statements of the actual output, read alone. */
export const statementsFromOutput = extraction({
  version: "deepeval_calls.statements/v1",
  key: "statements",
  lines: ["Break the actual output into its statements: one idea each; greetings and filler are statements too."],
  render: (input) => actualOutputSection(input),
});

/** Toxicity's and bias's opinions of the actual output, read alone. */
export const opinionsFromOutput = extraction({
  version: "deepeval_calls.opinions/v1",
  key: "opinions",
  lines: [
    "List the opinions the actual output expresses: judgements, beliefs, recommendations, evaluative statements.",
    "Statements of fact are not opinions, nor are opinions it attributes to someone else. No opinion: an empty list.",
  ],
  render: (input) => actualOutputSection(input),
});

/** Summarization's coverage questions, written from the source: closed yes/no questions it answers yes. */
export const questionsFromSource: PromptCall<{ questions: string[] }, { count: number }> = {
  version: "deepeval_calls.questions/v1",
  schemaName: "deepeval_questions",
  schema: (_input, { count }) => questionsSchema(count),
  system: ({ count }) =>
    [
      `Write ${count} closed yes/no questions about the most important information in the source text, each one the text answers "yes".`,
      "Each question must make sense to a reader who has not seen the text.",
      FENCE_RULE,
      'Answer with JSON only: {"questions": ["...", "..."]}',
    ].join("\n"),
  render: (input) => fence("source_text", input.request),
};
const questionsSchema = memoByKey((count: number) =>
  z.strictObject({ questions: z.array(itemText).min(1).max(count) }),
);
