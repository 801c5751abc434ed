import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import { type BleuType, ROUGE_TYPES, type StatisticalSettings } from "@/lib/contract/statisticalSettings";
import { computeBleu, computeIndividualBleu, DEFAULT_BLEU_TYPE } from "./bleu";
import { levenshteinSimilarity } from "./levenshtein";
import { computeMeteor } from "./meteor";
import { computeRougeScores, DEFAULT_ROUGE_TYPE, ROUGE_TYPE_NAMES } from "./rouge";
import { statisticalTokens } from "./tokens";
import { wordTokenize } from "./wordTokenize";

export { computeBleu, computeIndividualBleu, DEFAULT_BLEU_TYPE } from "./bleu";
export { wordTokenize } from "./wordTokenize";
export { computeMeteor } from "./meteor";
export { computeRouge, computeRougeScores, DEFAULT_ROUGE_TYPE, rougeTokens } from "./rouge";
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
 * One statistical score with its reason and figures. `rouge`'s score is the F-measure of the run's ROUGE type
 * (ROUGE-L unless it picks another), computed as Google's rouge_score does with the Porter stemmer (DeepEval's
 * scorer); every type's F-measure, precision and recall are kept as figures.
 */
export function scoreStatistically(
  metric: string,
  response: string,
  expected: string,
  settings: StatisticalSettings = {},
): JudgeVerdict {
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
      const type = settings.bleuType ?? DEFAULT_BLEU_TYPE;
      if (type !== "cumulative4") return deepEvalBleu(type, response, expected, verdict);
      const bleu = computeBleu(hypothesis, reference);
      const [p1, p2, p3, p4] = bleu.precisions;
      return verdict(
        bleu.score,
        `BLEU-4 ${fixed(bleu.score)}: n-gram precisions ${bleu.precisions.map(fixed).join(" / ")} (zero counts smoothed by NLTK's method 1), brevity penalty ${fixed(bleu.brevityPenalty)} (${hypothesis.length} response tokens, ${reference.length} expected).`,
        { precision_1: p1, precision_2: p2, precision_3: p3, precision_4: p4, brevity_penalty: bleu.brevityPenalty },
      );
    }
    case "response/statistical/rouge": {
      const scores = computeRougeScores(response, expected);
      const type = settings.rougeType ?? DEFAULT_ROUGE_TYPE;
      const chosen = scores[type];
      const others = ROUGE_TYPES.filter((other) => other !== type)
        .map((other) => `${ROUGE_TYPE_NAMES[other]} ${fixed(scores[other].f1)}`)
        .join(", ");
      return verdict(
        chosen.f1,
        `${ROUGE_TYPE_NAMES[type]} F1 ${fixed(chosen.f1)} (precision ${fixed(chosen.precision)}, recall ${fixed(chosen.recall)}; Porter-stemmed tokens, as Google's rouge_score and DeepEval compute it); ${others}.`,
        Object.fromEntries(
          ROUGE_TYPES.flatMap((name) => [
            [`${name}_f1`, scores[name].f1],
            [`${name}_precision`, scores[name].precision],
            [`${name}_recall`, scores[name].recall],
          ]),
        ),
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

type Verdict = (score: number, rationale: string, figures: Record<string, number>) => JudgeVerdict;

/** DeepEval's bleu1 … bleu4 (its scorer's sentence_bleu_score): one n-gram order, word_tokenize's tokens, unsmoothed. */
function deepEvalBleu(type: Exclude<BleuType, "cumulative4">, response: string, expected: string, verdict: Verdict) {
  const order = Number(type.slice(4)) as 1 | 2 | 3 | 4;
  const hypothesis = wordTokenize(response);
  const reference = wordTokenize(expected);
  const bleu = computeIndividualBleu(hypothesis, reference, order);
  const [p1, p2, p3, p4] = bleu.precisions;
  return verdict(
    bleu.score,
    `BLEU-${order} ${fixed(bleu.score)} (DeepEval's ${type}: ${order}-gram precision ${fixed(bleu.precisions[order - 1])} times the brevity penalty ${fixed(bleu.brevityPenalty)}, unsmoothed, on word_tokenize's tokens: ${hypothesis.length} in the response, ${reference.length} expected).`,
    { precision_1: p1, precision_2: p2, precision_3: p3, precision_4: p4, brevity_penalty: bleu.brevityPenalty },
  );
}
