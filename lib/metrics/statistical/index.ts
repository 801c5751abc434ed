import type { JudgeVerdict } from "@/lib/judges/types";
import { computeBleu } from "./bleu";
import { levenshteinSimilarity } from "./levenshtein";
import { computeMeteor } from "./meteor";
import { computeRouge } from "./rouge";
import { statisticalTokens } from "./tokens";

export { computeBleu } from "./bleu";
export { computeMeteor } from "./meteor";
export { computeRouge } from "./rouge";
export { levenshteinDistance, levenshteinSimilarity } from "./levenshtein";
export { porterStem } from "./porterStemmer";
export { statisticalTokens } from "./tokens";

/** The statistical scorers DeepEval surveys, by full metric name: no LLM, the response against expected_response. */
export const STATISTICAL_METRICS = [
  "response/statistical/bleu",
  "response/statistical/rouge",
  "response/statistical/meteor",
  "response/statistical/levenshtein",
] as const;

export function isStatisticalMetric(metric: string): boolean {
  return (STATISTICAL_METRICS as readonly string[]).includes(metric);
}

const round = (value: number) => Math.round(value * 10000) / 10000;
const fixed = (value: number) => value.toFixed(4);

/**
 * One statistical score with its reason and figures. `rouge`'s score is
 * ROUGE-L F1 (longest common subsequence: in-order overlap, not only shared
 * words); ROUGE-1/2 F1 and every precision and recall are kept as figures.
 */
export function scoreStatistically(metric: string, response: string, expected: string): JudgeVerdict {
  const hypothesis = statisticalTokens(response);
  const reference = statisticalTokens(expected);
  const verdict = (score: number, rationale: string, figures: Record<string, number>): JudgeVerdict => ({
    rating: null,
    score,
    rationale,
    errorMessage: null,
    details: { groups: [], figures: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, round(v)])) },
  });
  switch (metric) {
    case "response/statistical/bleu": {
      const bleu = computeBleu(hypothesis, reference);
      const [p1, p2, p3, p4] = bleu.precisions;
      return verdict(
        bleu.score,
        `BLEU-4 ${fixed(bleu.score)}: n-gram precisions ${bleu.precisions.map(fixed).join(" / ")} (zero counts smoothed by NLTK's method 1), brevity penalty ${fixed(bleu.brevityPenalty)} (${hypothesis.length} response tokens, ${reference.length} expected).`,
        { precision_1: p1, precision_2: p2, precision_3: p3, precision_4: p4, brevity_penalty: bleu.brevityPenalty },
      );
    }
    case "response/statistical/rouge": {
      const { rouge1, rouge2, rougeL } = computeRouge(hypothesis, reference);
      return verdict(
        rougeL.f1,
        `ROUGE-L F1 ${fixed(rougeL.f1)} (longest common subsequence: precision ${fixed(rougeL.precision)}, recall ${fixed(rougeL.recall)}); ROUGE-1 F1 ${fixed(rouge1.f1)}, ROUGE-2 F1 ${fixed(rouge2.f1)}.`,
        {
          rouge1_f1: rouge1.f1,
          rouge1_precision: rouge1.precision,
          rouge1_recall: rouge1.recall,
          rouge2_f1: rouge2.f1,
          rouge2_precision: rouge2.precision,
          rouge2_recall: rouge2.recall,
          rougeL_f1: rougeL.f1,
          rougeL_precision: rougeL.precision,
          rougeL_recall: rougeL.recall,
        },
      );
    }
    case "response/statistical/meteor": {
      const meteor = computeMeteor(hypothesis, reference);
      return verdict(
        meteor.score,
        `METEOR ${fixed(meteor.score)}: ${meteor.matches} matched words (exact or same stem) in ${meteor.chunks} chunk${meteor.chunks === 1 ? "" : "s"}, precision ${fixed(meteor.precision)}, recall ${fixed(meteor.recall)}, fragmentation penalty ${fixed(meteor.penalty)}.`,
        {
          precision: meteor.precision,
          recall: meteor.recall,
          fmean: meteor.fmean,
          matches: meteor.matches,
          chunks: meteor.chunks,
          penalty: meteor.penalty,
        },
      );
    }
    case "response/statistical/levenshtein": {
      const similarity = levenshteinSimilarity(response, expected);
      return verdict(
        similarity.score,
        `Edit similarity ${fixed(similarity.score)}: ${similarity.distance} character edit${similarity.distance === 1 ? "" : "s"} over ${similarity.length} characters (the longer text).`,
        { distance: similarity.distance, length: similarity.length },
      );
    }
    default:
      return { rating: null, score: null, rationale: null, errorMessage: `${metric} is not a statistical scorer` };
  }
}
