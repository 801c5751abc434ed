"use client";

import { useActionState } from "react";
import { raiseRunBudget, type RaiseRunBudgetState } from "@/app/actions/raiseRunBudget";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import { BudgetFields } from "@/components/runs/form/BudgetFields";

/** For a run its budget paused: the limits, prefilled, to raise or clear, and resume in one step. */
export function RaiseBudgetForm({ runId, current }: { runId: string; current: RunBudget }) {
  const [state, action, pending] = useActionState<RaiseRunBudgetState, FormData>(raiseRunBudget, { message: null });
  return (
    <form
      onSubmit={submitTo(action)}
      className="flex flex-wrap items-end gap-3 rounded border border-orange-200 bg-orange-50 px-3 py-2"
      aria-label="Raise the budget and resume"
      data-testid="raise-budget-form"
    >
      <input type="hidden" name="runId" value={runId} />
      <BudgetFields current={current} idPrefix={`raise-${runId}`} />
      <Button disabled={pending} data-testid="resume-run">
        {pending ? "Resuming…" : "Raise budget and resume"}
      </Button>
      {state.message && (
        <p role="alert" className="basis-full text-sm text-red-800">
          {state.message}
        </p>
      )}
    </form>
  );
}
