import { resumeRun } from "@/app/actions/resumeRun";
import { Button } from "@/components/ui/Button";
import { getDb } from "@/lib/db/client";
import { getRunBudgetState } from "@/lib/db/runBudget";
import { RaiseBudgetForm } from "./RaiseBudgetForm";

/**
 * Shown for a failed or paused run only: resuming keeps every finished judgment and judges the pending
 * ones. A run its budget paused would pause again at once, so it gets its limits to raise or clear first.
 */
export async function ResumeRunButton({ runId, status }: { runId: string; status: string }) {
  if (status !== "failed" && status !== "paused") return null;
  const budget = status === "paused" ? await getRunBudgetState(getDb(), runId) : null;
  if (budget?.pausedByBudget) return <RaiseBudgetForm runId={runId} current={budget.budget} />;
  return (
    <form action={resumeRun}>
      <input type="hidden" name="runId" value={runId} />
      <Button data-testid="resume-run">Resume run</Button>
    </form>
  );
}
