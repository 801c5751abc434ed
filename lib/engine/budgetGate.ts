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
  /** Calls reserved in the store against the run's call budget; the result's write frees them (judgmentResults.ts). */
  readonly heldInStore: number;
  /** Frees the store's hold when no result is written (the claim was lost). */
  releaseStoreHold(): Promise<void>;
};

/** The run's call budget shared by every worker (runSpending.ts): reserve before the calls, release if none are written. */
export type SharedCallBudget = {
  reserve(calls: number): Promise<boolean>;
  release(calls: number): Promise<void>;
};

export type BudgetGate = {
  /** A reservation of `calls` calls, or null once a limit is reached (the work stays pending for the resume). */
  reserve(calls: number): Promise<Reservation | null>;
  /** Adds what finished work spent (after its reservation is released). */
  book(spent: Spent): void;
  /** Takes the run's spending as the store has it now (every worker's), read on the heartbeat. */
  refresh(spent: RunSpending): void;
  /** The limit that stopped the run, once one did. */
  readonly reached: keyof RunBudget | null;
  readonly budget: RunBudget;
  readonly spent: RunSpending;
};

/**
 * The run's budget, checked before every LLM call the engine starts, generation and judging alike: the calls in
 * flight and the calls the next piece of work would make must fit. A call budget is shared by every worker of the
 * run through the store (`shared`): a reservation is granted only while every worker's spending and reservations
 * fit, so ten workers never spend ten budgets. Tokens and cost are checked against the run's spending, refreshed
 * from the store every second and counted here as work finishes. Over the limit the run goes only by retries and
 * repair attempts of calls already started.
 */
export function createBudgetGate(budget: RunBudget, spentBefore: RunSpending, shared?: SharedCallBudget): BudgetGate {
  const spent = { ...spentBefore };
  let inFlight = 0;
  let reached: keyof RunBudget | null = null;
  const useShared = shared !== undefined && budget.calls !== null;

  return {
    budget,
    spent,
    get reached() {
      return reached;
    },
    async reserve(calls) {
      reached ??= reachedLimit(budget, spent, inFlight, calls);
      if (reached !== null) return null;
      if (useShared && calls > 0 && !(await shared.reserve(calls))) {
        reached = "calls";
        return null;
      }
      let reserved = calls;
      inFlight += reserved;
      let released = false;
      let storeHeld = useShared ? calls : 0;
      return {
        get heldInStore() {
          return storeHeld;
        },
        async releaseStoreHold() {
          const held = storeHeld;
          storeHeld = 0;
          if (held > 0) await shared?.release(held);
        },
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
    refresh(storeSpent) {
      spent.calls = Math.max(spent.calls, storeSpent.calls);
      spent.tokens = Math.max(spent.tokens, storeSpent.tokens);
      spent.usd = Math.max(spent.usd, storeSpent.usd);
    },
  };
}
