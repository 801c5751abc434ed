import type { TokenLogprob } from "@/lib/llm/types";

/**
 * G-Eval's probability weighting (DeepEval's G-Eval, step 3; the paper's normalisation,
 * as DeepEval does it): at the answer token that carries the score, take the
 * top alternatives that are themselves scores in the range, drop those under
 * 1% probability, renormalise, and return Σ p(s)·s. A model torn between 3
 * and 4 gets 3.4, not a coin-flip 3 or 4.
 *
 * The score is the answer's last field (the reason comes first), so its token
 * is the last one that spells it: a number inside the reason is not mistaken
 * for it, as a first-match search would.
 *
 * Null when the weighting cannot be done honestly: no log-probabilities, no
 * token spelling the raw score, or no score alternative left; the caller then
 * keeps the plain score.
 */
export const MIN_TOKEN_PROBABILITY = 0.01;

export type WeightedScore = { score: number; probabilities: Record<number, number> };

export function probabilityWeightedScore(
  tokens: TokenLogprob[] | null | undefined,
  rawScore: number,
  range: { min: number; max: number },
): WeightedScore | null {
  if (!tokens) return null;
  const scoreToken = tokens.findLast((t) => t.token.trim() === String(rawScore));
  if (!scoreToken) return null;
  // The chosen token itself is among the alternatives on OpenAI; add it when a server leaves it out.
  const alternatives = scoreToken.top.some((alt) => alt.token === scoreToken.token)
    ? scoreToken.top
    : [{ token: scoreToken.token, logprob: scoreToken.logprob }, ...scoreToken.top];
  const mass = new Map<number, number>();
  for (const alt of alternatives) {
    const text = alt.token.trim();
    if (!/^\d+$/.test(text)) continue;
    const value = Number(text);
    if (value < range.min || value > range.max) continue;
    const probability = Math.exp(alt.logprob);
    if (probability < MIN_TOKEN_PROBABILITY) continue;
    mass.set(value, (mass.get(value) ?? 0) + probability);
  }
  const total = [...mass.values()].reduce((sum, p) => sum + p, 0);
  if (total === 0) return null;
  let weighted = 0;
  const probabilities: Record<number, number> = {};
  for (const [value, p] of [...mass.entries()].sort((a, b) => a[0] - b[0])) {
    probabilities[value] = p / total;
    weighted += value * (p / total);
  }
  return { score: weighted, probabilities };
}

/**
 * DeepEval's own weighting (deepeval/metrics/g_eval/utils.py, calculate_weighted_summed_score), for
 * DeepEval-exact: the last token that is exactly the raw score (untrimmed), then every alternative among its
 * top log-probabilities that is all digits and at least 1% likely, in range or not (the chosen token is not
 * added when a server leaves it out). Python's isdecimal() also takes non-ASCII digits; no model's score
 * token is one, and they are left out here.
 */
export function deepEvalWeightedScore(
  tokens: TokenLogprob[] | null | undefined,
  rawScore: number,
): WeightedScore | null {
  if (!tokens) return null;
  const scoreToken = tokens.findLast((t) => t.token === String(rawScore));
  if (!scoreToken) return null;
  const mass = new Map<number, number>();
  for (const alt of scoreToken.top) {
    if (alt.logprob < Math.log(MIN_TOKEN_PROBABILITY) || !/^[0-9]+$/.test(alt.token)) continue;
    const value = Number(alt.token);
    mass.set(value, (mass.get(value) ?? 0) + Math.exp(alt.logprob));
  }
  const total = [...mass.values()].reduce((sum, p) => sum + p, 0);
  if (total === 0) return null;
  const probabilities: Record<number, number> = {};
  let weighted = 0;
  for (const [value, p] of [...mass.entries()].sort((a, b) => a[0] - b[0])) {
    probabilities[value] = p / total;
    weighted += value * (p / total);
  }
  return { score: weighted, probabilities };
}
