import { reachedLimit, type RunBudget, type RunSpending } from "@/lib/db/runs/runBudget";

/** What one finished call (or judgment) spent. */
export type Spent = { calls: number; tokens: number; usd: number };

/** The calls one judgment or generation was let make; `extend` asks for more, `release` frees them once it is done. */
export type Reservation = {
  /**
   * Asks for `more` calls on top of the reservation after `made` calls were made (a malformed batched answer's
   * per-chunk fallback): true, and they are reserved, when they fit the budget with every call in flight.
   */
  extend(made: number, more: number): boolean;
  release(): void;
};

export type BudgetGate = {
  /** A reservation of `calls` calls, or null once a limit is reached (the work stays pending for the resume). */
  reserve(calls: number): Reservation | null;
  /** Adds what finished work spent (after its reservation is released). */
  book(spent: Spent): void;
  /** The limit that stopped the run, once one did. */
  readonly reached: keyof RunBudget | null;
  readonly budget: RunBudget;
  readonly spent: RunSpending;
};

/**
 * The run's budget, checked before every LLM call the engine starts, generation and judging alike: the calls in
 * flight and the calls the next piece of work would make must fit. What the run had spent is read once, then
 * counted here as work finishes, so the check costs no query. Over the limit the run goes only by retries and
 * repair attempts of calls already started.
 */
export function createBudgetGate(budget: RunBudget, spentBefore: RunSpending): BudgetGate {
  const spent = { ...spentBefore };
  let inFlight = 0;
  let reached: keyof RunBudget | null = null;

  return {
    budget,
    spent,
    get reached() {
      return reached;
    },
    reserve(calls) {
      reached ??= reachedLimit(budget, spent, inFlight, calls);
      if (reached !== null) return null;
      let reserved = calls;
      inFlight += reserved;
      let released = false;
      return {
        extend(made, more) {
          // Calls already made past the reservation (a repair attempt) are spent too, though not yet settled.
          const overrun = Math.max(0, made - reserved);
          if (reachedLimit(budget, spent, inFlight + overrun, more) !== null) return false;
          reserved += more;
          inFlight += more;
          return true;
        },
        release() {
          if (released) return;
          released = true;
          inFlight -= reserved;
        },
      };
    },
    book(result) {
      spent.calls += result.calls;
      spent.tokens += result.tokens;
      spent.usd += result.usd;
    },
  };
}
