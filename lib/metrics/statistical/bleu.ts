import { ngramCounts } from "./tokens";

/** SmoothingFunction().method1's epsilon in NLTK (Chen & Cherry 2014): added to a zero n-gram match count. */
const EPSILON = 0.1;
const MAX_ORDER = 4;

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
  const precisions = matches.map((m, i) => m / totals[i]);
  const brevityPenalty = brevity(reference.length, hypothesis.length);
  if (matches[0] === 0) return { score: 0, precisions, brevityPenalty };
  const smoothed = matches.map((m, i) => (m === 0 ? EPSILON / totals[i] : m / totals[i]));
  const logSum = smoothed.reduce((sum, p) => sum + Math.log(p) / MAX_ORDER, 0);
  return { score: brevityPenalty * Math.exp(logSum), precisions, brevityPenalty };
}

function brevity(referenceLength: number, hypothesisLength: number): number {
  if (hypothesisLength > referenceLength) return 1;
  if (hypothesisLength === 0) return 0;
  return Math.exp(1 - referenceLength / hypothesisLength);
}
