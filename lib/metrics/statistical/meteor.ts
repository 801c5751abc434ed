import { porterStem } from "./porterStemmer";

/** NLTK's meteor_score parameters (Lavie & Agarwal 2007 defaults). */
const ALPHA = 0.9;
const BETA = 3;
const GAMMA = 0.5;

export type MeteorResult = {
  score: number;
  precision: number;
  recall: number;
  fmean: number;
  matches: number;
  chunks: number;
  penalty: number;
};

type Indexed = [position: number, word: string];

/**
 * METEOR against one reference, as NLTK 3.8's
 * `meteor_score([reference], hypothesis)` computes it, with its greedy
 * alignment: exact matches first, then Porter-stem matches, each scanning
 * both sides from the end; matched pairs sorted by hypothesis position,
 * chunks counted over that order; Fmean = P·R / (α·P + (1 − α)·R), penalty
 * γ·(chunks / matches)^β, score (1 − penalty)·Fmean.
 *
 * NLTK's third stage, WordNet synonyms, is left out: the WordNet database is
 * not shipped with Assay. The tests compare against NLTK run with a WordNet
 * that has no synonyms, which is exactly this.
 */
export function computeMeteor(hypothesis: string[], reference: string[]): MeteorResult {
  const hyp: Indexed[] = hypothesis.map((word, i) => [i, word.toLowerCase()]);
  const ref: Indexed[] = reference.map((word, i) => [i, word.toLowerCase()]);
  const exact = matchGreedily(hyp, ref);
  const stemmed = matchGreedily(
    hyp.map(([i, word]) => [i, porterStem(word)]),
    ref.map(([i, word]) => [i, porterStem(word)]),
  );
  const matches = [...exact, ...stemmed].sort((a, b) => a[0] - b[0]);
  const empty = { score: 0, precision: 0, recall: 0, fmean: 0, matches: matches.length, chunks: 0, penalty: 0 };
  if (hypothesis.length === 0 || reference.length === 0 || matches.length === 0) return empty;
  const precision = matches.length / hypothesis.length;
  const recall = matches.length / reference.length;
  const fmean = (precision * recall) / (ALPHA * precision + (1 - ALPHA) * recall);
  const chunks = countChunks(matches);
  const penalty = GAMMA * (chunks / matches.length) ** BETA;
  return { score: (1 - penalty) * fmean, precision, recall, fmean, matches: matches.length, chunks, penalty };
}

/** NLTK's _match_enums: removes matched words from both lists (in place), returns (hypothesis, reference) positions. */
function matchGreedily(hyp: Indexed[], ref: Indexed[]): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (hyp[i][1] === ref[j][1]) {
        pairs.push([hyp[i][0], ref[j][0]]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
  return pairs;
}

function countChunks(matches: [number, number][]): number {
  let chunks = 1;
  for (let i = 0; i < matches.length - 1; i++) {
    const adjacent = matches[i + 1][0] === matches[i][0] + 1 && matches[i + 1][1] === matches[i][1] + 1;
    if (!adjacent) chunks++;
  }
  return chunks;
}
