"use client";

import { useActionState } from "react";
import { resumePairwise, type ResumePairwiseState } from "@/app/actions/resumePairwise";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/** Judges what a comparison has left: its finished verdicts are kept, so nothing judged is judged again. */
export function ResumePairwiseButton({
  comparisonId,
  label,
  raiseCallsFrom,
}: {
  comparisonId: string;
  label: string;
  /** The call budget it stopped at, when it did: the form offers a higher one. */
  raiseCallsFrom?: number | null;
}) {
  const [state, submit, pending] = useActionState<ResumePairwiseState, FormData>(resumePairwise, { message: null });
  return (
    <form onSubmit={submitTo(submit)} className="inline-flex items-center gap-2">
      <input type="hidden" name="comparisonId" value={comparisonId} />
      {raiseCallsFrom != null && (
        <label className="text-xs text-slate-600">
          Call budget{" "}
          <input
            type="number"
            name="budgetCalls"
            min={raiseCallsFrom + 1}
            defaultValue={raiseCallsFrom * 2}
            className="w-24 rounded border border-slate-300 px-1 py-0.5 text-xs"
            data-testid="raise-pairwise-budget"
          />
        </label>
      )}
      <Button type="submit" size="xs" disabled={pending} data-testid="resume-pairwise">
        {pending ? "Resuming…" : label}
      </Button>
      {state.message && (
        <span role="alert" className="text-xs text-rose-800">
          {state.message}
        </span>
      )}
    </form>
  );
}
