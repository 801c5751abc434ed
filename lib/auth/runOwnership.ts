import type { AuthUser } from "./guard";

/**
 * A run's budget is its creator's to change, or an admin's: a runner may start runs, but not raise or
 * clear the spending limit of a run someone else started. A run with no recorded creator (started while
 * sign-in was off, or from the CLI) belongs to whoever runs the server, so only an admin changes it.
 */
export function mayChangeRunBudget(user: AuthUser, run: { createdById: string | null }): boolean {
  return user.role === "admin" || (run.createdById !== null && run.createdById === user.id);
}

/** The refusal, naming the creator ("Only the run's creator (Rita Runner) or an admin can change its budget."). */
export function runBudgetRefusal(creatorName: string | null): string {
  return `Only the run's creator (${creatorName ?? "whoever runs the server"}) or an admin can change its budget.`;
}
