import { summarizationScores, type TriVerdict } from "@/lib/metrics/qag/formulas";
import { detailItem, listCapNotes, scoreVerdict } from "../prompts/scoreMetrics/shared";
import { triTally } from "../prompts/scoreMetrics/scoreMetricParts";
import { reasonFor, together, truthsNotes, type CallPlan } from "./callPlan";
import { claimsFromOutput, questionsFromSource, truthsFromSource } from "./extractionSteps";
import { claimsAgainstTruths, questionsAnswered } from "./verdictSteps";

/**
 * DeepEval's summarization, call by call: the source's truths and the summary's claims side by side;
 * then, side by side, the claims judged against the truths (alignment) and the coverage questions (the
 * run's assessment_questions, or n written from the source) answered once from the source and once
 * from the summary alone; then the reason. Up to 7 calls a row. Score = min(alignment, coverage).
 */
export const summarizationPlan: CallPlan = async (context) => {
  const { settings } = context;
  const [truths, claims, questions] = await together([
    context.call(truthsFromSource, { listCap: settings.listCap, limit: settings.truthsExtractionLimit }),
    context.call(claimsFromOutput, { listCap: settings.listCap }),
    settings.assessmentQuestions
      ? Promise.resolve(settings.assessmentQuestions)
      : context
          .call(questionsFromSource, { count: settings.summarizationQuestions })
          .then((answer) => answer.questions),
  ]);
  const [alignment, sourceAnswers, summaryAnswers] = await together([
    claims.claims.length === 0
      ? Promise.resolve({ verdicts: [] })
      : context.call(claimsAgainstTruths, { claims: claims.claims, truths: truths.truths, source: "source text" }),
    context.call(questionsAnswered, { questions, from: "source" }),
    context.call(questionsAnswered, { questions, from: "summary" }),
  ]);
  const alignmentVerdicts = alignment.verdicts.map((v) => v.verdict as TriVerdict);
  const coverage = questions.map((_, i) => ({
    source: sourceAnswers.answers[i].answer,
    summary: summaryAnswers.answers[i].answer,
  }));
  const scores = summarizationScores(alignmentVerdicts, coverage);
  const reason = await reasonFor(context, {
    metric: "summarization",
    score: scores.score,
    lowerIsBetter: false,
    heading: "Contradicted or invented claims, and questions the source answers but the summary does not",
    points: [
      ...alignment.verdicts
        .filter((v) => v.verdict !== "yes")
        .map((v) => `${claims.claims[v.index - 1]} (${v.verdict === "no" ? "contradicted" : "not in the source"})`),
      ...questions.filter((_, i) => coverage[i].source === "yes" && coverage[i].summary !== "yes"),
    ],
  });
  return scoreVerdict(
    scores.score,
    reason,
    [
      {
        title: "Claims",
        items: claims.claims.map((claim, i) =>
          detailItem(claim, alignmentVerdicts[i], alignment.verdicts[i]?.reason ?? null),
        ),
      },
      {
        title: settings.assessmentQuestions
          ? "Coverage questions (the run's assessment questions)"
          : "Coverage questions",
        items: questions.map((question, i) =>
          detailItem(question, coverage[i].summary, null, [
            `source: ${coverage[i].source}`,
            `summary: ${coverage[i].summary}`,
          ]),
        ),
      },
      { title: "Truths from the source", items: truths.truths.map((truth) => detailItem(truth, "truth", null)) },
    ],
    {
      alignment: scores.alignment,
      coverage: scores.coverage,
      claims: alignmentVerdicts.length,
      ...triTally(alignmentVerdicts),
      questions: coverage.length,
      truths: truths.truths.length,
    },
    [
      ...listCapNotes(settings.listCap, { claims: claims.claims.length }),
      ...truthsNotes(settings, truths.truths.length, 1),
    ],
  );
};
