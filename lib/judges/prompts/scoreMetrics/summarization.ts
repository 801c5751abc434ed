import { z } from "zod";
import { summarizationScores } from "@/lib/metrics/qag/formulas";
import { DEFAULT_SUMMARIZATION_QUESTIONS } from "@/lib/contract/deepEvalSettings";
import type { ScoreMetricSettings } from "../../judgeBackend";
import { fence } from "../fence";
import type { FollowUpContext, PromptTemplate } from "../promptTemplate";
import {
  actualOutputSection,
  detailItem,
  indexedItems,
  itemText,
  listCapNotes,
  memoByKey,
  promptOptionsOf,
  scoreVerdict,
  triVerdict,
  type PromptOptions,
  upToCap,
} from "./shared";
import {
  deepEvalSystem,
  scoreMetricSystem,
  triTally,
  verdictGroup,
  verdictItems,
  withOverallReason,
} from "./scoreMetricParts";

/**
 * DeepEval's summarization in two calls (DeepEval: truths, claims, alignment
 * verdicts, questions, two sets of answers, reason). The input is the source
 * text and the actual output its summary.
 * Call 1 reads source and summary. Alignment: each claim of the summary
 * against the source, "yes" supported, "no" contradicted, "idk" not in the
 * source (an invention). Coverage: closed yes/no questions about the source's
 * key information (DeepEval's `n` of them, default 5, or the run's own
 * `assessment_questions`), each answered from the source.
 * Call 2 reads only the summary and the questions, and answers each from
 * the summary. It is a separate call because a model that can see the source
 * cannot answer "from the summary alone": the coverage half of the definition
 * needs a reader who never saw the source.
 * Score = min(alignment, coverage); see lib/metrics/qag/formulas.ts.
 */
export const QUESTION_COUNT = DEFAULT_SUMMARIZATION_QUESTIONS;

type Settings = ScoreMetricSettings | undefined;

const questionCount = (settings: Settings) => settings?.deepEval?.summarizationQuestions ?? QUESTION_COUNT;
const givenQuestions = (settings: Settings) => settings?.deepEval?.assessmentQuestions ?? null;

const alignmentSchema = memoByKey((options: PromptOptions, given: number) =>
  withOverallReason(
    {
      claims: verdictItems("claim", triVerdict, options.listCap),
      questions:
        given > 0
          ? indexedItems("question_index", given, { source_answer: triVerdict })
          : upToCap(z.array(z.strictObject({ question: itemText, source_answer: triVerdict })).min(1), options.listCap),
    },
    options,
  ),
);
export type SummarizationAlignment = {
  claims: { claim: string; verdict: "yes" | "no" | "idk"; reason: string }[];
  /** Generated questions carry their text; the run's own assessment questions are answered by index. */
  questions: { question?: string; question_index?: number; source_answer: "yes" | "no" | "idk" }[];
  reason?: string;
};

/** The coverage questions with the source's answers: the run's own, or those call 1 wrote. */
export function coverageQuestions(first: SummarizationAlignment, settings: Settings) {
  const given = givenQuestions(settings);
  return first.questions.map((q, i) => ({
    question: (given ? given[i] : q.question) ?? "",
    source_answer: q.source_answer,
  }));
}

const summaryAnswersSchema = memoByKey((count: number) =>
  z.strictObject({ answers: indexedItems("question_index", count, { answer: triVerdict }) }),
);
export type SummaryAnswers = z.infer<ReturnType<typeof summaryAnswersSchema>>;

/** Call 2: the questions answered from the summary alone; the row's verdict. */
export const summarizationSummaryAnswers: PromptTemplate<SummaryAnswers, FollowUpContext<SummarizationAlignment>> = {
  version: "deepeval.summarization_summary_answers/v2",
  schemaName: "summarization_summary_answers",
  schema: (_input, { first }) => summaryAnswersSchema(first.questions.length),
  system: scoreMetricSystem(
    [
      "You read a text (the actual output) and answer closed yes/no questions about it.",
      '1. Answer each question "yes", "no" or "idk" using only the text: "yes" when the text states it, "no" when the text states otherwise, "idk" when the text does not say.',
      "2. Do not use anything you know or guess beyond the text.",
    ],
    '{"answers": [{"question_index": 1, "answer": "yes" | "no" | "idk"}]}',
  ),
  render: (input, { first, settings }) =>
    [
      actualOutputSection(input),
      coverageQuestions(first, settings as Settings)
        .map((q, index) => fence("question", q.question, { index: index + 1 }))
        .join("\n\n"),
    ].join("\n\n"),
  toVerdict: (second, _input, { first, settings }) => {
    const options = promptOptionsOf(settings as Settings);
    const alignmentVerdicts = first.claims.map((c) => c.verdict);
    const questions = coverageQuestions(first, settings as Settings).map((q, i) => ({
      ...q,
      summary_answer: second.answers[i].answer,
    }));
    const coverage = questions.map((q) => ({ source: q.source_answer, summary: q.summary_answer }));
    const scores = summarizationScores(alignmentVerdicts, coverage);
    return scoreVerdict(
      scores.score,
      first.reason,
      [
        verdictGroup("Claims", first.claims, "claim"),
        {
          title: givenQuestions(settings as Settings)
            ? "Coverage questions (the run's assessment questions)"
            : "Coverage questions",
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
      listCapNotes(options.listCap, { claims: alignmentVerdicts.length }),
    );
  },
};

function coverageLines(settings: Settings): string[] {
  const given = givenQuestions(settings);
  if (given)
    return [
      "2. Answer each of these coverage questions about the source (assessment questions from the evaluator), in order:",
      ...given.map((question, i) => `   ${i + 1}. ${question}`),
      '3. Answer "yes", "no" or "idk" using only the source (source_answer). The summary\'s answers are collected separately.',
    ];
  return [
    `2. Write ${questionCount(settings)} closed yes/no questions about the most important information of the source, each one the source answers "yes". Each question must make sense on its own to a reader who has not seen the source.`,
    '3. Answer each question "yes", "no" or "idk" using only the source (source_answer). The summary\'s answers are collected separately.',
  ];
}

/** Call 1: alignment claims with verdicts, the questions with the source's answers, and the reason. */
export const summarization: PromptTemplate<SummarizationAlignment, Settings> = {
  version: "deepeval.summarization/v3",
  schemaName: "summarization_claims_questions",
  schema: (_input, settings) =>
    alignmentSchema(
      promptOptionsOf(settings),
      givenQuestions(settings)?.length ?? 0,
    ) as z.ZodType<SummarizationAlignment>,
  system: (settings) =>
    deepEvalSystem(promptOptionsOf(settings), {
      lines: [
        "You grade a summary (the actual output) of a source text (the input).",
        "Alignment:",
        '1. Extract every claim the summary makes. For each: "yes" when the source supports it, "no" when the source contradicts it, "idk" when the source does not contain it (added or invented information).',
        "Coverage:",
        ...coverageLines(settings),
      ],
      reasonLine:
        "4. Give a short overall reason: contradictions, inventions, and the key information the summary misses.",
      shape: givenQuestions(settings)
        ? '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "questions": [{"question_index": 1, "source_answer": "yes" | "no" | "idk"}, ...one per question, in order]'
        : '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "questions": [{"question": "...", "source_answer": "yes" | "no" | "idk"}]',
    }),
  render: (input) => [fence("source_text", input.request), actualOutputSection(input)].join("\n\n"),
  followUp: summarizationSummaryAnswers,
};
