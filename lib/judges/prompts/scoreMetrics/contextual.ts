import { z } from "zod";
import { contextualPrecisionScore, contextualRecallScore, contextualRelevancyScore } from "@/lib/metrics/qag/formulas";
import type { ScoreMetricSettings } from "../../judgeBackend";
import type { JudgeInput } from "../../types";
import type { PromptTemplate } from "../promptTemplate";
import { conversationSection } from "../sections";
import {
  binaryVerdict,
  detailItem,
  expectedOutputSection,
  indexedItems,
  itemReason,
  itemText,
  LIMITS,
  listCapNotes,
  memoByKey,
  promptOptionsOf,
  retrievalContextSection,
  scoreVerdict,
  tally,
  type PromptOptions,
  upToCap,
} from "./shared";
import { deepEvalSystem, verdictItems, withOverallReason } from "./scoreMetricParts";

/** DeepEval's three retriever metrics, each in one call: verdicts and reason in one structured answer. */

const NODE_TEXT_SHOWN = 300;
const nodeText = (input: JudgeInput, index: number): string => {
  const content = input.retrievedContext[index]?.content ?? "";
  return content.length > NODE_TEXT_SHOWN ? `${content.slice(0, NODE_TEXT_SHOWN)}…` : content;
};
const nodeTags = (input: JudgeInput, index: number): string[] => [
  `rank ${index + 1}`,
  ...(input.retrievedContext[index]?.docUri ? [input.retrievedContext[index].docUri] : []),
];

// ── contextual_precision ────────────────────────────────────────────────────

export const contextualPrecisionAnswerSchema = memoByKey((count: number, options: PromptOptions) =>
  withOverallReason(
    { verdicts: indexedItems("node_index", count, { verdict: binaryVerdict, reason: itemReason }) },
    options,
  ),
);
export type ContextualPrecisionAnswer = z.infer<ReturnType<typeof contextualPrecisionAnswerSchema>>;

/** Per retrieved node, useful for producing the expected output or not; rank-weighted average precision. */
export const contextualPrecision: PromptTemplate<ContextualPrecisionAnswer, ScoreMetricSettings | undefined> = {
  version: "deepeval.contextual_precision/v2",
  schemaName: "contextual_precision_nodes",
  schema: (input, settings) =>
    contextualPrecisionAnswerSchema(input.retrievedContext.length, promptOptionsOf(settings)),
  system: (settings) =>
    deepEvalSystem(promptOptionsOf(settings), {
      lines: [
        "You judge a retriever's ranking: for each retrieval node, in the given order, decide whether it was useful in arriving at the expected output for the input.",
        '"yes" when the node holds information used in, or needed for, the expected output; "no" when it does not (off-topic, or on-topic but not needed).',
      ],
      reasonLine:
        "Judge every node on its own. Then give a short overall reason: are the useful nodes ranked above the others?",
      withoutReason: "Judge every node on its own.",
      shape: '{"verdicts": [{"node_index": 1, "verdict": "yes" | "no", "reason": "..."}, ...one per node, in order]',
    }),
  render: (input) =>
    [conversationSection(input), expectedOutputSection(input), retrievalContextSection(input)].join("\n\n"),
  toVerdict: (answer, input) => {
    const verdicts = answer.verdicts.map((v) => v.verdict);
    return scoreVerdict(
      contextualPrecisionScore(verdicts),
      answer.reason,
      [
        {
          title: "Retrieval nodes",
          items: answer.verdicts.map((v, i) => detailItem(nodeText(input, i), v.verdict, v.reason, nodeTags(input, i))),
        },
      ],
      { nodes: verdicts.length, relevant: tally(verdicts, ["yes"]).yes },
    );
  },
};

// ── contextual_recall ───────────────────────────────────────────────────────

export const contextualRecallAnswerSchema = memoByKey((count: number, options: PromptOptions) =>
  withOverallReason(
    {
      sentences: upToCap(
        z.array(
          z.strictObject({
            sentence: itemText,
            verdict: binaryVerdict,
            node_index: z.number().int().min(1).max(Math.max(count, 1)).nullable(),
            reason: itemReason,
          }),
        ),
        options.listCap,
      ),
    },
    options,
  ),
);
export type ContextualRecallAnswer = z.infer<ReturnType<typeof contextualRecallAnswerSchema>>;

/** Sentences of the expected output attributable to some retrieval node / sentences. */
export const contextualRecall: PromptTemplate<ContextualRecallAnswer, ScoreMetricSettings | undefined> = {
  version: "deepeval.contextual_recall/v2",
  schemaName: "contextual_recall_sentences",
  schema: (input, settings) => contextualRecallAnswerSchema(input.retrievedContext.length, promptOptionsOf(settings)),
  system: (settings) =>
    deepEvalSystem(promptOptionsOf(settings), {
      lines: [
        "You measure a retriever's recall: how much of the expected output the retrieval context could have produced.",
        "1. Split the expected output into its sentences (each stated fact of a list is a sentence).",
        '2. For each sentence: "yes" when it can be attributed to some retrieval node (give that node_index), "no" when no node supports it (node_index null).',
      ],
      reasonLine: "3. Give a short overall reason that names the sentences no node supports, if any.",
      shape: '{"sentences": [{"sentence": "...", "verdict": "yes" | "no", "node_index": 1 | null, "reason": "..."}]',
    }),
  render: (input) =>
    [conversationSection(input), expectedOutputSection(input), retrievalContextSection(input)].join("\n\n"),
  toVerdict: (answer, _input, settings) => {
    const verdicts = answer.sentences.map((s) => s.verdict);
    return scoreVerdict(
      contextualRecallScore(verdicts),
      answer.reason,
      [
        {
          title: "Expected output sentences",
          items: answer.sentences.map((s) =>
            detailItem(s.sentence, s.verdict, s.reason, s.node_index === null ? undefined : [`node ${s.node_index}`]),
          ),
        },
      ],
      { sentences: verdicts.length, attributable: tally(verdicts, ["yes"]).yes },
      listCapNotes(promptOptionsOf(settings).listCap, { sentences: verdicts.length }),
    );
  },
};

// ── contextual_relevancy ────────────────────────────────────────────────────

export const contextualRelevancyAnswerSchema = memoByKey((count: number, options: PromptOptions) =>
  withOverallReason(
    {
      nodes: indexedItems("node_index", count, {
        statements: verdictItems("statement", binaryVerdict, LIMITS.statementsPerNode),
      }),
    },
    options,
  ),
);
export type ContextualRelevancyAnswer = z.infer<ReturnType<typeof contextualRelevancyAnswerSchema>>;

/** Statements in the retrieval context relevant to the input / statements. */
export const contextualRelevancy: PromptTemplate<ContextualRelevancyAnswer, ScoreMetricSettings | undefined> = {
  version: "deepeval.contextual_relevancy/v2",
  schemaName: "contextual_relevancy_statements",
  schema: (input, settings) =>
    contextualRelevancyAnswerSchema(input.retrievedContext.length, promptOptionsOf(settings)),
  system: (settings) =>
    deepEvalSystem(promptOptionsOf(settings), {
      lines: [
        "You measure how relevant a retriever's context is to the input.",
        `1. For each retrieval node, in order, break its text into statements (at most ${LIMITS.statementsPerNode} per node; merge minor ones).`,
        '2. For each statement: "yes" when it is relevant to the input, "no" when it is not.',
      ],
      reasonLine: "3. Give a short overall reason that names what is irrelevant, if anything.",
      shape:
        '{"nodes": [{"node_index": 1, "statements": [{"statement": "...", "verdict": "yes" | "no", "reason": "..."}]}, ...one per node, in order]',
    }),
  render: (input) => [conversationSection(input), retrievalContextSection(input)].join("\n\n"),
  toVerdict: (answer) => {
    const perNode = answer.nodes.map((node) => node.statements.map((s) => s.verdict));
    const all = perNode.flat();
    return scoreVerdict(
      contextualRelevancyScore(perNode),
      answer.reason,
      [
        {
          title: "Statements",
          items: answer.nodes.flatMap((node) =>
            node.statements.map((s) => detailItem(s.statement, s.verdict, s.reason, [`node ${node.node_index}`])),
          ),
        },
      ],
      { statements: all.length, relevant: tally(all, ["yes"]).yes },
    );
  },
};
