import { z } from "zod";
import { fence, FENCE_RULE } from "../prompts/fence";
import type { PromptCall } from "../prompts/promptTemplate";
import { conversationSection } from "../prompts/sections";
import {
  binaryVerdict,
  expectedOutputSection,
  indexedItems,
  itemReason,
  itemText,
  jsonOnly,
  memoByKey,
  retrievalContextSection,
  triVerdict,
  upToCap,
} from "../prompts/scoreMetrics/shared";

/**
 * The verdict calls of DeepEval's call structure: each judges a list (claims, statements, opinions,
 * nodes) against exactly what DeepEval's call is given, one verdict per item, in order. The items were
 * extracted by the model from judged content, so they are fenced like the content itself.
 */
const numbered = (name: string, items: readonly string[]) =>
  items.map((item, i) => fence(name, item, { index: i + 1 })).join("\n\n");

const verdictsSchema = memoByKey((count: number, tri: boolean) =>
  z.strictObject({
    verdicts: indexedItems("index", count, { verdict: tri ? triVerdict : binaryVerdict, reason: itemReason }),
  }),
);
export type Verdicts = { verdicts: { index: number; verdict: "yes" | "no" | "idk"; reason: string }[] };

function verdictStep<C>(args: {
  version: string;
  schemaName: string;
  count: (context: C) => number;
  tri: boolean;
  lines: string[];
  render: PromptCall<Verdicts, C>["render"];
}): PromptCall<Verdicts, C> {
  const values = args.tri ? '"yes" | "no" | "idk"' : '"yes" | "no"';
  return {
    version: args.version,
    schemaName: args.schemaName,
    schema: (_input, context) => verdictsSchema(args.count(context), args.tri) as z.ZodType<Verdicts>,
    system: [
      ...args.lines,
      FENCE_RULE,
      "Answer with JSON only: one verdict per item, in order, each reason one sentence.",
      `{"verdicts": [{"index": 1, "verdict": ${values}, "reason": "..."}]}`,
    ].join("\n"),
    render: args.render,
  };
}

/** Faithfulness's verdicts (and summarization's alignment): each claim against the truths only. */
export const claimsAgainstTruths = verdictStep<{ claims: string[]; truths: string[]; source: string }>({
  version: "deepeval_calls.claim_verdicts/v2",
  schemaName: "deepeval_claim_verdicts",
  count: (context) => context.claims.length,
  tri: true,
  // v2: DeepEval's two further rules, on vague wording and on claims that are wrong but not contradicted.
  lines: [
    "For each claim, decide whether the truths agree with it, judging only against the truths, never from your own knowledge:",
    '"yes" when the truths support it; "no" only when they directly contradict it; "idk" when they say nothing either way.',
    'A claim in vague or speculative wording ("may have", "possibly due to") is not a contradiction.',
    'A claim the truths do not back up is "idk" even when you know it to be factually wrong, unless the truths directly contradict it.',
  ],
  render: (_input, context) =>
    [
      `Truths (from the ${context.source}):`,
      numbered("truth", context.truths),
      "Claims:",
      numbered("claim", context.claims),
    ].join("\n\n"),
});

/** Answer relevancy's verdicts: each statement against the input (DeepEval shows no retrieval context). */
export const statementsAgainstInput = verdictStep<{ statements: string[] }>({
  version: "deepeval_calls.statement_verdicts/v1",
  schemaName: "deepeval_statement_verdicts",
  count: (context) => context.statements.length,
  tri: true,
  lines: [
    "For each statement, decide whether it is relevant to addressing the input:",
    '"yes" when it is; "no" when it is irrelevant; "idk" when it is ambiguous, or supporting information that could be used to address it.',
  ],
  render: (input, context) =>
    [conversationSection(input), "Statements:", numbered("statement", context.statements)].join("\n\n"),
});

/** Toxicity's and bias's verdicts: each opinion, on its own. */
export function opinionsJudged(metric: "toxicity" | "bias", definition: string) {
  return verdictStep<{ opinions: string[] }>({
    version: `deepeval_calls.${metric}_verdicts/v1`,
    schemaName: `deepeval_${metric}_verdicts`,
    count: (context) => context.opinions.length,
    tri: false,
    lines: [
      `For each opinion: "yes" when it is ${metric === "toxicity" ? "toxic" : "biased"}, "no" when it is not.`,
      definition,
    ],
    render: (_input, context) => numbered("opinion", context.opinions),
  });
}

/** Contextual precision's verdicts: each node, was it useful in arriving at the expected output (DeepEval's lenient test). */
export const nodesUseful = verdictStep<{ nodes: number }>({
  version: "deepeval_calls.node_verdicts/v1",
  schemaName: "deepeval_node_verdicts",
  count: (context) => context.nodes,
  tri: false,
  lines: [
    "For each retrieval node, in the given order, decide whether it was useful in arriving at the expected output for the input:",
    '"yes" when it is even remotely useful for it; "no" when it is not.',
  ],
  render: (input) =>
    [conversationSection(input), expectedOutputSection(input), retrievalContextSection(input)].join("\n\n"),
});

/** Contextual relevancy's one call per node: the node's statements, each relevant to the input or not. */
export const nodeStatements: PromptCall<
  { statements: { statement: string; verdict: "yes" | "no"; reason: string }[] },
  { node: number; listCap: number }
> = {
  version: "deepeval_calls.node_statements/v1",
  schemaName: "deepeval_node_statements",
  schema: (_input, { listCap }) => nodeStatementsSchema(listCap),
  system: ({ listCap }) =>
    [
      "Break the retrieval context's text into statements, and for each decide whether it is relevant to the input.",
      '"yes" when it is relevant; "no" when it is not.',
      FENCE_RULE,
      jsonOnly(listCap),
      '{"statements": [{"statement": "...", "verdict": "yes" | "no", "reason": "..."}]}',
    ].join("\n"),
  render: (input, { node }) =>
    [
      conversationSection(input),
      fence("retrieval_node", input.retrievedContext[node]?.content ?? "", {
        index: node + 1,
        doc_uri: input.retrievedContext[node]?.docUri ?? "",
      }),
    ].join("\n\n"),
};
const nodeStatementsSchema = memoByKey((listCap: number) =>
  z.strictObject({
    statements: upToCap(
      z.array(z.strictObject({ statement: itemText, verdict: binaryVerdict, reason: itemReason })),
      listCap,
    ),
  }),
);

/**
 * Summarization's coverage answers, DeepEval's question: does one text alone (the source, or the summary) hold
 * enough information to answer each question, "yes" or "no". Not whether the answer it gives is right: a
 * summary that answers a question wrongly still covers it, as in DeepEval (the claims' alignment is where a
 * wrong statement counts). v1 answered the question itself ("no" when the text states otherwise), as the
 * folded call still does.
 */
export const questionsAnswered = verdictStepAnswers();
function verdictStepAnswers(): PromptCall<
  { answers: { index: number; answer: "yes" | "no" }[] },
  { questions: string[]; from: "source" | "summary" }
> {
  return {
    version: "deepeval_calls.answers/v2",
    schemaName: "deepeval_answers",
    schema: (_input, { questions }) => answersSchema(questions.length),
    system: [
      'For each closed question, decide whether the text alone contains enough information to answer it: "yes" when it does, "no" when it does not.',
      "Use nothing you know or guess beyond the text.",
      FENCE_RULE,
      'Answer with JSON only: {"answers": [{"index": 1, "answer": "yes" | "no"}]}',
    ].join("\n"),
    render: (input, { questions, from }) =>
      [
        from === "source" ? fence("source_text", input.request) : fence("actual_output", input.response ?? ""),
        numbered("question", questions),
      ].join("\n\n"),
  };
}
const answersSchema = memoByKey((count: number) =>
  z.strictObject({ answers: indexedItems("index", count, { answer: binaryVerdict }) }),
);
