import { exactMcNemar } from "./mcnemar";
import { rowRateInterval } from "./trialAgreement";
import { wilsonInterval } from "./wilson";

type Winner = "a" | "b" | "tie";

/** What the summary is computed from (lib/db/pairwise/pairwiseCounts.ts reads them in SQL), for one criterion. */
export type PairwiseCountsOfCriterion = {
  /** Every judgment written: order shown, winner, which response was longer. */
  judgments: readonly { shownOrder: "ab" | "ba"; winner: Winner; longer: "a" | "b" | "same"; count: number }[];
  /** Both orders: pairs by the winner of each order. Empty in one-order mode. */
  pairs: readonly { ab: Winner; ba: Winner; count: number }[];
  orders: "both" | "one";
};

export type Rate = { value: number; low: number; high: number; of: number };

export type PairwiseSummary = {
  /** Pairs with a verdict: both orders judged (both-order mode), or the one order. */
  pairs: number;
  /** B (the candidate) won, A (the baseline) won, neither. */
  wins: number;
  losses: number;
  ties: number;
  /** Of the ties, those whose two orders named different winners (MT-Bench's rule turns them into ties). */
  positionDependent: number;
  /** B's win rate over A, a tie counted as half, with its interval (the pair the unit). Null with no pair. */
  winRate: Rate | null;
  /** B's share of the decisive pairs (ties left out), Wilson's interval. Null with none. */
  winRateWithoutTies: Rate | null;
  /** The exact two-sided sign test of wins against losses (ties carry no information on the direction). */
  signTest: { pValue: number; wins: number; losses: number };
  /** Share of the pairs that got the same verdict in both orders (both-order mode only). */
  positionConsistency: Rate | null;
  /** Of the judgments that named a winner, the share won by the response shown first (0.5 for a judge without position bias). */
  firstShownWinRate: Rate | null;
  /** Of the judgments that named a winner between responses of different lengths, the share won by the longer one. */
  longerWinRate: Rate | null;
  /** Share of the pairs whose verdict is a tie (position-dependent ones included). */
  tieRate: Rate | null;
};

function rate(successes: number, of: number, confidence: number): Rate | null {
  const interval = wilsonInterval(successes, of, confidence);
  return interval ? { value: successes / of, ...interval, of } : null;
}

/**
 * A pairwise comparison's result and its judge's diagnostics for one criterion, from grouped counts. Both-order
 * pairs combine as MT-Bench's conservative rule does (FastChat's show_result.py): the same winner both ways is
 * that winner; anything else a tie. In one-order mode a pair's verdict is its one judgment's.
 */
export function summarizePairwise(counts: PairwiseCountsOfCriterion, confidence = 0.95): PairwiseSummary {
  let wins = 0;
  let losses = 0;
  let ties = 0;
  let positionDependent = 0;
  let consistent = 0;
  if (counts.orders === "both") {
    for (const { ab, ba, count } of counts.pairs) {
      if (ab === ba) consistent += count;
      if (ab === ba && ab === "b") wins += count;
      else if (ab === ba && ab === "a") losses += count;
      else {
        ties += count;
        if (ab !== ba) positionDependent += count;
      }
    }
  } else {
    for (const { winner, count } of counts.judgments) {
      if (winner === "b") wins += count;
      else if (winner === "a") losses += count;
      else ties += count;
    }
  }
  const pairs = wins + losses + ties;
  let decisive = 0;
  let firstWon = 0;
  let decisiveByLength = 0;
  let longerWon = 0;
  for (const { shownOrder, winner, longer, count } of counts.judgments) {
    if (winner === "tie") continue;
    decisive += count;
    if ((shownOrder === "ab") === (winner === "a")) firstWon += count;
    if (longer === "same") continue;
    decisiveByLength += count;
    if (longer === winner) longerWon += count;
  }
  // A pair scores 1 for a win, ½ for a tie, 0 for a loss: the mean over pairs is the win rate, and its interval
  // takes the pair as the unit (Wilson's at the number of pairs the spread of the scores allows).
  const winRateInterval = rowRateInterval(
    [
      { passes: 2, trials: 2, rows: wins },
      { passes: 1, trials: 2, rows: ties },
      { passes: 0, trials: 2, rows: losses },
    ],
    confidence,
  );
  return {
    pairs,
    wins,
    losses,
    ties,
    positionDependent,
    winRate: winRateInterval ? { value: (wins + ties / 2) / pairs, ...winRateInterval, of: pairs } : null,
    winRateWithoutTies: rate(wins, wins + losses, confidence),
    signTest: { pValue: exactMcNemar(wins, losses).pValue, wins, losses },
    positionConsistency: counts.orders === "both" ? rate(consistent, pairs, confidence) : null,
    firstShownWinRate: rate(firstWon, decisive, confidence),
    longerWinRate: rate(longerWon, decisiveByLength, confidence),
    tieRate: rate(ties, pairs, confidence),
  };
}
