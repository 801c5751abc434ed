import { z } from "zod";
import { summarizationScores } from "@/lib/metrics/qag/formulas";
import { fence, FENCE_RULE } from "../fence";
import type { PromptTemplate } from "../promptTemplate";
import {
  actualOutputSection,
  detailItem,
  itemReason,
  itemText,
  JSON_ONLY,
  LIMITS,
  overallReason,
  scoreVerdict,
  tally,
  triVerdict,
} from "./shared";

/**
 * DeepEval's summarization in one call (DeepEval: truths, claims, alignment
 * verdicts, questions, two sets of answers, reason). The input is the source
 * text and the actual output its summary.
 * Alignment: each claim of the summary against the source, "yes" supported,
 * "no" contradicted, "idk" not in the source (an invention). Coverage:
 * closed yes/no questions about the source's key information, each answered
 * once from the source alone and once from the summary alone.
 * Score = min(alignment, coverage); see lib/metrics/qag/formulas.ts.
 */
export const QUESTION_COUNT = 5;

export const summarizationAnswerSchema = z.strictObject({
  claims: z.array(z.strictObject({ claim: itemText, verdict: triVerdict, reason: itemReason })).max(LIMITS.items),
  questions: z
    .array(z.strictObject({ question: itemText, source_answer: triVerdict, summary_answer: triVerdict }))
    .max(LIMITS.items),
  reason: overallReason,
});
export type SummarizationAnswer = z.infer<typeof summarizationAnswerSchema>;

export const summarization: PromptTemplate<SummarizationAnswer> = {
  version: "deepeval.summarization/v1",
  schemaName: "summarization_claims_questions",
  schema: () => summarizationAnswerSchema,
  system: [
    "You grade a summary (the actual output) of a source text (the input).",
    "Alignment:",
    '1. Extract every claim the summary makes. For each: "yes" when the source supports it, "no" when the source contradicts it, "idk" when the source does not contain it (added or invented information).',
    "Coverage:",
    `2. Write ${QUESTION_COUNT} closed yes/no questions about the most important information of the source, each one the source answers "yes".`,
    '3. Answer each question twice, "yes", "no" or "idk": source_answer using only the source, summary_answer using only the summary, as if you had never seen the source. Information that is only in the source gives "idk" for the summary.',
    "4. Give a short overall reason: contradictions, inventions, and the key information the summary misses.",
    FENCE_RULE,
    JSON_ONLY,
    '{"claims": [{"claim": "...", "verdict": "yes" | "no" | "idk", "reason": "..."}], "questions": [{"question": "...", "source_answer": "yes" | "no" | "idk", "summary_answer": "yes" | "no" | "idk"}], "reason": "..."}',
  ].join("\n"),
  render: (input) => [fence("source_text", input.request), actualOutputSection(input)].join("\n\n"),
  toVerdict: (answer) => {
    const alignmentVerdicts = answer.claims.map((c) => c.verdict);
    const coverage = answer.questions.map((q) => ({ source: q.source_answer, summary: q.summary_answer }));
    const scores = summarizationScores(alignmentVerdicts, coverage);
    return scoreVerdict(
      scores.score,
      answer.reason,
      [
        { title: "Claims", items: answer.claims.map((c) => detailItem(c.claim, c.verdict, c.reason)) },
        {
          title: "Coverage questions",
          items: answer.questions.map((q) =>
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
        ...tally(alignmentVerdicts, ["yes", "no", "idk"]),
        questions: coverage.length,
      },
    );
  },
};
