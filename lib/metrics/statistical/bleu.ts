import type { BleuType } from "@/lib/contract/statisticalSettings";
import { ngramCounts } from "./tokens";

/** SmoothingFunction().method1's epsilon in NLTK (Chen & Cherry 2014): added to a zero n-gram match count. */
const EPSILON = 0.1;
const MAX_ORDER = 4;

/**
 * The standard BLEU-4 unless a run picks another: it rewards phrases (2- to 4-grams in the expected order)
 * as well as words, where DeepEval's default, bleu1, is word precision alone; and its smoothing keeps a short
 * answer that misses every 4-gram from scoring 0.
 */
export const DEFAULT_BLEU_TYPE: BleuType = "cumulative4";

export type BleuResult = {
  /** BLEU-4 with uniform weights, brevity penalty and method-1 smoothing. */
  score: number;
  /** Modified n-gram precisions p1..p4 before smoothing. */
  precisions: number[];
  brevityPenalty: number;
};

/**
 * Sentence BLEU-4 against one reference, as NLTK's
 * `sentence_bleu([reference], hypothesis, weights=(0.25,)*4,
 * smoothing_function=SmoothingFunction().method1)` computes it: clipped
 * n-gram precisions (denominator at least 1), a zero count smoothed to
 * 0.1 / denominator, the geometric mean times the brevity penalty
 * exp(1 − r/c) when the hypothesis is shorter; 0 when no unigram matches.
 */
export function computeBleu(hypothesis: string[], reference: string[]): BleuResult {
  const { matches, totals } = clippedCounts(hypothesis, reference);
  const precisions = matches.map((m, i) => m / totals[i]);
  const brevityPenalty = brevity(reference.length, hypothesis.length);
  if (matches[0] === 0) return { score: 0, precisions, brevityPenalty };
  const smoothed = matches.map((m, i) => (m === 0 ? EPSILON / totals[i] : m / totals[i]));
  const logSum = smoothed.reduce((sum, p) => sum + Math.log(p) / MAX_ORDER, 0);
  return { score: brevityPenalty * Math.exp(logSum), precisions, brevityPenalty };
}

/** Python's sys.float_info.min: what NLTK's default smoothing (method0) puts for a precision of zero. */
const FLOAT_MIN = 2.2250738585072014e-308;

/**
 * DeepEval's BLEU variants (bleu1 … bleu4): NLTK's sentence_bleu with all the weight on one n-gram order,
 * `weights=(1,0,0,0)` for bleu1 up to `(0,0,0,1)` for bleu4, no smoothing. That is the brevity penalty times
 * that order's clipped precision; 0 when no unigram matches, and NLTK's float minimum (about 2e-308, a zero in
 * every practical sense) when only that order has no match.
 */
export function computeIndividualBleu(hypothesis: string[], reference: string[], order: 1 | 2 | 3 | 4): BleuResult {
  const { matches, totals } = clippedCounts(hypothesis, reference);
  const precisions = matches.map((m, i) => m / totals[i]);
  const brevityPenalty = brevity(reference.length, hypothesis.length);
  if (matches[0] === 0) return { score: 0, precisions, brevityPenalty };
  const precision = matches[order - 1] === 0 ? FLOAT_MIN : precisions[order - 1];
  return { score: brevityPenalty * Math.exp(Math.log(precision)), precisions, brevityPenalty };
}

/** Per order 1..4: the hypothesis's n-grams found in the reference (clipped to the reference's count), and how many it has (at least 1). */
function clippedCounts(hypothesis: string[], reference: string[]): { matches: number[]; totals: number[] } {
  const matches: number[] = [];
  const totals: number[] = [];
  for (let n = 1; n <= MAX_ORDER; n++) {
    const hyp = ngramCounts(hypothesis, n);
    const ref = ngramCounts(reference, n);
    let clipped = 0;
    let total = 0;
    for (const [gram, count] of hyp) {
      clipped += Math.min(count, ref.get(gram) ?? 0);
      total += count;
    }
    matches.push(clipped);
    totals.push(Math.max(1, total));
  }
  return { matches, totals };
}

function brevity(referenceLength: number, hypothesisLength: number): number {
  if (hypothesisLength > referenceLength) return 1;
  if (hypothesisLength === 0) return 0;
  return Math.exp(1 - referenceLength / hypothesisLength);
}
