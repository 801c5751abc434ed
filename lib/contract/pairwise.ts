import { z } from "zod";

/**
 * Pairwise (A/B) judging, as the engine, the store and the pages agree on it. A is the baseline run, B the
 * candidate; a verdict's winner is always mapped back to them, whichever response was shown first.
 */

/** The built-in criterion: which response better answers the request, grounded in the context when there is one. */
export const OVERALL_CRITERION = "overall";

/** A criterion's name: what it reports under (`pairwise/<name>`), lower case like Agent Evaluation's assessment names. */
export const CRITERION_NAME = /^[a-z][a-z0-9_]{0,39}$/;

export const pairwiseCriterionSchema = z.strictObject({
  name: z
    .string()
    .regex(CRITERION_NAME, "a criterion's name is 1–40 lower-case letters, digits or _, starting with a letter"),
  /** The custom criterion's instructions; absent for the built-in one. */
  instructions: z.string().trim().min(1).max(4000).optional(),
});
export type PairwiseCriterion = z.output<typeof pairwiseCriterionSchema>;

export const storedCriteriaSchema = z.array(pairwiseCriterionSchema).min(1);

/** both: every pair asked twice, positions swapped (the default); one: once, in an order drawn per row from the seed. */
export const PAIRWISE_ORDERS = ["both", "one"] as const;
export type PairwiseOrders = (typeof PAIRWISE_ORDERS)[number];

/** ab: the baseline's response shown first; ba: the candidate's. */
export type ShownOrder = "ab" | "ba";

/** Which run's response won a judgment or a pair: a (the baseline), b (the candidate), or neither. */
export type PairWinner = "a" | "b" | "tie";

/** A pairwise comparison's lifecycle. `judging` with a silent heartbeat is a stopped one, resumed from its page. */
export type PairwiseStatus = "planning" | "judging" | "completed" | "failed";

/** The metric name a criterion's result reports under, beside the pointwise metrics in compare and the gate. */
export function pairwiseMetricName(criterion: string): string {
  return `pairwise/${criterion}`;
}

/** Calls a pairwise judgment makes before anything is spent: one per paired row, criterion and order. */
export function pairwiseCallCount(pairs: number, criteria: number, orders: PairwiseOrders): number {
  return pairs * criteria * (orders === "both" ? 2 : 1);
}

/**
 * The pair's verdict from its judgments (MT-Bench's conservative rule, FastChat's show_result.py): one order
 * gives its own winner; in both orders the same winner both ways is that winner, anything else is a tie, and
 * position-dependent when the two orders named different winners (a tie both ways is a plain tie).
 */
export function pairVerdict(
  first: PairWinner,
  second?: PairWinner,
): { winner: PairWinner; positionDependent: boolean } {
  if (second === undefined) return { winner: first, positionDependent: false };
  if (first === second) return { winner: first, positionDependent: false };
  return { winner: "tie", positionDependent: true };
}
