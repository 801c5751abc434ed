import type { RougeType } from "@/lib/contract/statisticalSettings";
import { porterStem } from "./porterStemmer";
import { ngramCounts } from "./tokens";

export type RougeFigures = { precision: number; recall: number; f1: number };
export type RougeResult = { rouge1: RougeFigures; rouge2: RougeFigures; rougeL: RougeFigures };

/** ROUGE-L unless a run picks another: in-order overlap, the type that rewards an answer's word order. */
export const DEFAULT_ROUGE_TYPE: RougeType = "rougeL";

export const ROUGE_TYPE_NAMES: Record<RougeType, string> = {
  rouge1: "ROUGE-1",
  rouge2: "ROUGE-2",
  rougeL: "ROUGE-L",
  rougeLsum: "ROUGE-Lsum",
};

/**
 * rouge_score's tokeniser, which DeepEval's scorer calls with use_stemmer=True: lower case, every run of
 * characters other than a-z and 0-9 a separator (so letters outside ASCII separate words, as there), and
 * with `stem`, NLTK's Porter stemmer on tokens longer than three characters ("running" → "run").
 */
export function rougeTokens(text: string, stem: boolean): string[] {
  const tokens = text.toLowerCase().split(/[^a-z0-9]+/);
  return tokens.filter((token) => token !== "").map((token) => (stem && token.length > 3 ? porterStem(token) : token));
}

/**
 * Every ROUGE type of a response against the expected response, as Google's rouge_score computes them with
 * the stemmer (`stem`, on by default, as DeepEval's scorer runs it): precision over the response, recall over
 * the expected response, and their F-measure. rougeLsum is the summary-level LCS over lines (newlines split
 * sentences, as rouge_score assumes). 0 when either side has no token.
 */
export function computeRougeScores(
  response: string,
  expected: string,
  options: { stem?: boolean } = {},
): Record<RougeType, RougeFigures> {
  const stem = options.stem ?? true;
  return {
    ...computeRouge(rougeTokens(response, stem), rougeTokens(expected, stem)),
    rougeLsum: summaryLevelLcs(linesOf(response, stem), linesOf(expected, stem)),
  };
}

/** ROUGE-1, ROUGE-2 (clipped n-gram overlap) and ROUGE-L (longest common subsequence) of two token lists. */
export function computeRouge(hypothesis: string[], reference: string[]): RougeResult {
  return {
    rouge1: ngramOverlap(hypothesis, reference, 1),
    rouge2: ngramOverlap(hypothesis, reference, 2),
    rougeL:
      hypothesis.length === 0 || reference.length === 0
        ? figures(0, 0, 0)
        : figures(
            lcsTable(reference, hypothesis)[reference.length][hypothesis.length],
            hypothesis.length,
            reference.length,
          ),
  };
}

function linesOf(text: string, stem: boolean): string[][] {
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => rougeTokens(line, stem));
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

function lcsTable(a: string[], b: string[]): number[][] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      table[i][j] = a[i - 1] === b[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
  return table;
}

/** The reference positions of one longest common subsequence, read back from the table as rouge_score does. */
function lcsPositions(reference: string[], candidate: string[]): number[] {
  const table = lcsTable(reference, candidate);
  const positions: number[] = [];
  let i = reference.length;
  let j = candidate.length;
  while (i > 0 && j > 0) {
    if (reference[i - 1] === candidate[j - 1]) {
      positions.unshift(i - 1);
      i -= 1;
      j -= 1;
    } else if (table[i][j - 1] > table[i - 1][j]) j -= 1;
    else i -= 1;
  }
  return positions;
}

/**
 * Summary-level LCS (Lin 2004, section 3.2) as ROUGE 1.5.5 and rouge_score count it: per reference line, the
 * union of its LCS with each response line, each token counted no more often than it occurs on either side.
 */
function summaryLevelLcs(candidate: string[][], reference: string[][]): RougeFigures {
  const m = reference.reduce((sum, line) => sum + line.length, 0);
  const n = candidate.reduce((sum, line) => sum + line.length, 0);
  if (m === 0 || n === 0) return figures(0, 0, 0);
  const countsOf = (lines: string[][]) => {
    const counts = new Map<string, number>();
    for (const token of lines.flat()) counts.set(token, (counts.get(token) ?? 0) + 1);
    return counts;
  };
  const referenceCounts = countsOf(reference);
  const candidateCounts = countsOf(candidate);
  let hits = 0;
  for (const line of reference) {
    const union = [...new Set(candidate.flatMap((other) => lcsPositions(line, other)))].sort((x, y) => x - y);
    for (const token of union.map((position) => line[position])) {
      const inCandidate = candidateCounts.get(token) ?? 0;
      const inReference = referenceCounts.get(token) ?? 0;
      if (inCandidate > 0 && inReference > 0) {
        hits += 1;
        candidateCounts.set(token, inCandidate - 1);
        referenceCounts.set(token, inReference - 1);
      }
    }
  }
  return figures(hits, n, m);
}
