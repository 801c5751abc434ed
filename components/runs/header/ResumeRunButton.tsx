import { resumeRun } from "@/app/actions/resumeRun";
import { Button } from "@/components/ui/Button";
import { currentUser } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getRunBudgetState } from "@/lib/db/runs/runBudget";
import { checkStoredRunMaySpend } from "@/lib/server/runSpendingGuard";
import { RaiseBudgetForm } from "./RaiseBudgetForm";

/**
 * Shown for a failed or paused run only: resuming keeps every finished judgment and judges the pending
 * ones. A run its budget paused would pause again at once, so it gets its limits to raise or clear first.
 */
export async function ResumeRunButton({
  runId,
  status,
  budgetChange,
}: {
  runId: string;
  status: string;
  /** Whether this user may change the run's budget (its creator or an admin), and the refusal otherwise. */
  budgetChange: { allowed: true } | { allowed: false; refusal: string };
}) {
  if (status !== "failed" && status !== "paused") return null;
  const budget = status === "paused" ? await getRunBudgetState(getDb(), runId) : null;
  if (budget?.pausedByBudget)
    return budgetChange.allowed ? (
      <RaiseBudgetForm runId={runId} current={budget.budget} />
    ) : (
      // Courtesy only: raiseRunBudget refuses anyone else on the server.
      <p className="text-sm text-slate-600" data-testid="raise-budget-refused">
        Paused by its budget. {budgetChange.refusal}
      </p>
    );
  // The server-wide spending limits in the way, said here rather than after the click (the action refuses anyway).
  const user = await currentUser();
  const allowed = user ? await checkStoredRunMaySpend(getDb(), user, runId) : null;
  if (allowed && !allowed.ok)
    return (
      <p role="status" className="text-sm text-red-800" data-testid="resume-refused">
        This run cannot resume: {allowed.problems.join(" ")}
      </p>
    );
  return (
    <form action={resumeRun}>
      <input type="hidden" name="runId" value={runId} />
      <Button data-testid="resume-run">Resume run</Button>
    </form>
  );
}
