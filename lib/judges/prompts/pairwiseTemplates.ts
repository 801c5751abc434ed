import { z } from "zod";
import type { PairwiseCriterion } from "@/lib/contract/pairwise";
import type { ContextItem } from "@/lib/contract/normalizedRow";
import type { JudgeInput } from "../types";
import { FENCE_RULE, fence } from "./fence";
import { MAX_RATIONALE_CHARS } from "./outputSchemas";
import type { PromptCall } from "./promptTemplate";
import { conversationSection, factsSection } from "./sections";

/** One of the two responses as the judge is shown it: the response and the context its application retrieved. */
export type ShownResponse = { response: string; retrievedContext: ContextItem[] };

/**
 * What a pairwise call is rendered from beside the row (the request and its ground truth, JudgeInput): the
 * criterion and the two responses in the order shown. Which run each came from is never in the prompt.
 */
export type PairwiseContext = { criterion: PairwiseCriterion; first: ShownResponse; second: ShownResponse };

/** The shown positions' names in the prompt and the answer; mapped back to the runs by the caller. */
export const pairwiseAnswerSchema = z.strictObject({
  rationale: z
    .string()
    .min(1)
    .transform((text) => (text.length > MAX_RATIONALE_CHARS ? `${text.slice(0, MAX_RATIONALE_CHARS - 1)}…` : text)),
  winner: z.enum(["A", "B", "tie"]),
});
export type PairwiseAnswer = z.output<typeof pairwiseAnswerSchema>;

/**
 * MT-Bench's pairwise judge (FastChat's "pair-v2" system prompt), kept close to its words: an impartial judge
 * of two assistants' answers to one request, told to ignore position, length and names, with a tie allowed.
 * Assay's differences: the answer is JSON with a rationale first (as every Assay judge's), the judged content is
 * fenced, the expected response or facts and the retrieved context are shown when the row has them, and a custom
 * criterion replaces "follows the user's instructions and answers the user's question better" with its own.
 */
export const pairwiseJudge: PromptCall<PairwiseAnswer, PairwiseContext> = {
  version: "pairwise/v1",
  schemaName: "pairwise_verdict",
  schema: () => pairwiseAnswerSchema,
  system: ({ criterion }) =>
    [
      "Please act as an impartial judge and evaluate the quality of the responses provided by two AI assistants to the user request shown below.",
      criterion.instructions
        ? `You should choose the assistant whose response better meets these criteria, written by the evaluation's author (the "${criterion.name}" criterion):\n<criteria>\n${criterion.instructions}\n</criteria>`
        : "You should choose the assistant that follows the user's instructions and answers the user's request better: correct, complete, relevant and helpful, and, where retrieved context is shown, grounded in it.",
      "Where an expected response or expected facts are shown, use them as the ground truth the responses should agree with.",
      "Avoid any position biases and ensure that the order in which the responses were presented does not influence your decision. Do not allow the length of the responses to influence your evaluation. Do not favor certain names of the assistants. Be as objective as possible.",
      'Answer "tie" when neither response is better.',
      FENCE_RULE,
      'Explain your comparison first, then decide. Answer with JSON only: {"rationale": "<one short paragraph>", "winner": "A" | "B" | "tie"}, where A is the first assistant shown and B the second.',
    ].join("\n"),
  render: (input, { first, second }) => {
    const sameContext = sameChunks(first.retrievedContext, second.retrievedContext);
    return [
      conversationSection(input),
      sameContext && first.retrievedContext.length > 0
        ? `The context retrieved for both assistants:\n${chunks(first.retrievedContext)}`
        : "",
      groundTruth(input),
      shown("A", first, !sameContext),
      shown("B", second, !sameContext),
    ]
      .filter((part) => part !== "")
      .join("\n\n");
  },
};

function shown(name: "A" | "B", side: ShownResponse, withContext: boolean): string {
  const context =
    withContext && side.retrievedContext.length > 0
      ? `The context retrieved for assistant ${name}:\n${chunks(side.retrievedContext)}\n`
      : "";
  return `${context}Assistant ${name}'s response:\n${fence(`response_${name.toLowerCase()}`, side.response)}`;
}

function groundTruth(input: JudgeInput): string {
  if (input.expectedFacts && input.expectedFacts.length > 0)
    return `The expected facts:\n${factsSection(input.expectedFacts)}`;
  if (input.expectedResponse) return `The expected response:\n${fence("expected_response", input.expectedResponse)}`;
  return "";
}

function chunks(context: ContextItem[]): string {
  return context
    .map((chunk, index) => fence("chunk", chunk.content ?? "", { index: index + 1, doc_uri: chunk.docUri }))
    .join("\n\n");
}

function sameChunks(a: ContextItem[], b: ContextItem[]): boolean {
  return a.length === b.length && a.every((chunk, i) => chunk.content === b[i].content && chunk.docUri === b[i].docUri);
}
