import { z } from "zod";
import { summarizationScores } from "@/lib/metrics/qag/formulas";
import { fence } from "../fence";
import type { PromptTemplate } from "../promptTemplate";
import {
  actualOutputSection,
  detailItem,
  indexedItems,
  itemText,
  LIMITS,
  memoByCount,
  overallReason,
  scoreVerdict,
  triVerdict,
} from "./shared";
import { scoreMetricSystem, triTally, verdictGroup, verdictItems } from "./scoreMetricParts";

/**
 * DeepEval's summarization in two calls (DeepEval: truths, claims, alignment
 * verdicts, questions, two sets of answers, reason). The input is the source
 * text and the actual output its summary.
 * Call 1 reads source and summary. Alignment: each claim of the summary
 * against the source, "yes" supported, "no" contradicted, "idk" not in the
 * source (an invention). Coverage: closed yes/no questions about the source's
 * key information, each answered from the source.
 * Call 2 reads only the summary and call 1's questions, and answers each from
 * the summary. It is a separate call because a model that can see the source
 * cannot answer "from the summary alone": the coverage half of the definition
 * needs a reader who never saw the source.
 * Score = min(alignment, coverage); see lib/metrics/qag/formulas.ts.
 */
export const QUESTION_COUNT = 5;

export const summarizationAlignmentSchema = z.strictObject({
  claims: verdictItems("claim", triVerdict),
  questions: z
    .array(z.strictObject({ question: itemText, source_answer: triVerdict }))
    .min(1)
    .max(LIMITS.items),
  reason: overallReason,
});
export type SummarizationAlignment = z.infer<typeof summarizationAlignmentSchema>;

const summaryAnswersSchema = memoByCount((count) =>
  z.strictObject({ answers: indexedItems("question_index", count, { answer: triVerdict }) }),
);
export type SummaryAnswers = z.infer<ReturnType<typeof summaryAnswersSchema>>;

/** Call 2: the questions answered from the summary alone; the row's verdict. */
export const summarizationSummaryAnswers: PromptTemplate<SummaryAnswers, SummarizationAlignment> = {
  version: "deepeval.summarization_summary_answers/v2",
  schemaName: "summarization_summary_answers",
  schema: (_input, first) => summaryAnswersSchema(first.questions.length),
  system: scoreMetricSystem(
    [
      "You read a text (the actual output) and answer closed yes/no questions about it.",
      '1. Answer each question "yes", "no" or "idk" using only the text: "yes" when the text states it, "no" when the text states otherwise, "idk" when the text does not say.',
      "2. Do not use anything you know or guess beyond the text.",
    ],
    '{"answers": [{"question_index": 1, "answer": "yes" | "no" | "idk"}]}',
  ),
  render: (input, first) =>
    [
      actualOutputSection(input),
      first.questions.map((q, index) => fence("question", q.question, { index: index + 1 })).join("\n\n"),
    ].join("\n\n"),
  toVerdict: (second, _input, first) => {
    const alignmentVerdicts = first.claims.map((c) => c.verdict);
    const questions = first.questions.map((q, i) => ({ ...q, summary_answer: second.answers[i].answer }));
    const coverage = questions.map((q) => ({ source: q.source_answer, summary: q.summary_answer }));
    const scores = summarizationScores(alignmentVerdicts, coverage);
    return scoreVerdict(
      scores.score,
      first.reason,
      [
        verdictGroup("Claims", first.claims, "claim"),
        {
          title: "Coverage questions",
          items: questions.map((q) =>
            detailItem(q.question, q.summary_answer, null, [
              `source: ${q.source_answer}`,
              `summary: ${q.summary_answer}`,
            ]),
          ),
        },
      ],
      {
        alignment: scores.alignment,
        coverage: scores.coverage,
        claims: alignmentVerdicts.length,
        ...triTally(alignmentVerdicts),
        questions: coverage.length,
      },
    );
  },
};

/** Call 1: alignment claims with verdicts, the questions with the source's answers, and the reason. */
export const summarization: PromptTemplate<SummarizationAlignment> = {
  version: "deepeval.summarization/v3",
  schemaName: "summarization_claims_questions",
  schema: () => summarizationAlignmentSchema,
  system: scoreMetricSystem(
    [
      "You grade a summary (the actual output) of a source text (the input).",
      "Alignment:",
      '1. Extract every claim the summary makes. For each: "yes" when the source supports it, "no" when the source contradicts it, "idk" when the source does not contain it (added or invented information).',
      "Coverage:",
      `2. Write ${QUESTION_COUNT} closed yes/no questions about the most important information of the source, each one the source answers "yes". Each question must make sense on its own to a reader who has not seen the source.`,
      '3. Answer each question "yes", "no" or "idk" using only the source (source_answer). The summary\'s answers are collected separately.',
      "4. Give a short overall reason: contradictions, inventions, and the key information the summary misses.",
    ],
    '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "questions": [{"question": "...", "source_answer": "yes" | "no" | "idk"}], "reason": "..."}',
  ),
  render: (input) => [fence("source_text", input.request), actualOutputSection(input)].join("\n\n"),
  followUp: summarizationSummaryAnswers,
};
