import { ngramCounts } from "./tokens";

export type RougeFigures = { precision: number; recall: number; f1: number };
export type RougeResult = { rouge1: RougeFigures; rouge2: RougeFigures; rougeL: RougeFigures };

/**
 * ROUGE-1, ROUGE-2 (clipped n-gram overlap) and ROUGE-L (longest common
 * subsequence), each as precision over the response, recall over the
 * expected response and their F1, as Google's rouge-score package computes
 * them without stemming. 0 when either side has no n-grams.
 */
export function computeRouge(hypothesis: string[], reference: string[]): RougeResult {
  return {
    rouge1: ngramOverlap(hypothesis, reference, 1),
    rouge2: ngramOverlap(hypothesis, reference, 2),
    rougeL: figures(lcsLength(hypothesis, reference), hypothesis.length, reference.length),
  };
}

function ngramOverlap(hypothesis: string[], reference: string[], n: number): RougeFigures {
  const hyp = ngramCounts(hypothesis, n);
  const ref = ngramCounts(reference, n);
  let overlap = 0;
  for (const [gram, count] of hyp) overlap += Math.min(count, ref.get(gram) ?? 0);
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, c) => sum + c, 0);
  return figures(overlap, total(hyp), total(ref));
}

function figures(overlap: number, hypothesisCount: number, referenceCount: number): RougeFigures {
  const precision = hypothesisCount === 0 ? 0 : overlap / hypothesisCount;
  const recall = referenceCount === 0 ? 0 : overlap / referenceCount;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function lcsLength(a: string[], b: string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const current = [0];
    for (let j = 1; j <= b.length; j++)
      current.push(a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]));
    previous = current;
  }
  return previous[b.length];
}
