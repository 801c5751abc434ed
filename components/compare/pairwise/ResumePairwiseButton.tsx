"use client";

import { useActionState } from "react";
import { resumePairwise, type ResumePairwiseState } from "@/app/actions/resumePairwise";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/** Judges what a comparison has left: its finished verdicts are kept, so nothing judged is judged again. */
export function ResumePairwiseButton({ comparisonId, label }: { comparisonId: string; label: string }) {
  const [state, submit, pending] = useActionState<ResumePairwiseState, FormData>(resumePairwise, { message: null });
  return (
    <form onSubmit={submitTo(submit)} className="inline-flex items-center gap-2">
      <input type="hidden" name="comparisonId" value={comparisonId} />
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
