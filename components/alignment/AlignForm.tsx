"use client";

import { useActionState, useEffect, useState } from "react";
import { draftAlignmentGuidance, type GuidanceDraftState } from "@/app/actions/draftAlignmentGuidance";
import { startJudgeAlignment, type StartAlignmentState } from "@/app/actions/startJudgeAlignment";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/**
 * Align's two steps on the page: an optional guidance draft (one LLM call), which lands in a field the user
 * reads and edits, then the alignment itself with whatever guidance the field holds (none when empty).
 */
export function AlignForm({
  runId,
  metric,
  heldOut,
  canDraft,
}: {
  runId: string;
  metric: string;
  heldOut: number;
  /** False when no training disagreement exists to draft a rule from. */
  canDraft: boolean;
}) {
  const [draft, askDraft, drafting] = useActionState<GuidanceDraftState, FormData>(draftAlignmentGuidance, {
    guidance: null,
    message: null,
  });
  const [start, askStart, starting] = useActionState<StartAlignmentState, FormData>(startJudgeAlignment, {
    message: null,
  });
  const [guidance, setGuidance] = useState("");
  useEffect(() => {
    if (draft.guidance !== null) setGuidance(draft.guidance);
  }, [draft.guidance]);
  return (
    <div className="space-y-3">
      <form onSubmit={submitTo(askDraft)} className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="runId" value={runId} />
        <input type="hidden" name="metric" value={metric} />
        <Button
          type="submit"
          size="sm"
          className="text-sm"
          disabled={!canDraft || drafting}
          data-testid="draft-guidance"
        >
          {drafting ? "Drafting…" : "Draft guidance from the training disagreements (1 LLM call)"}
        </Button>
        {!canDraft && (
          <span className="text-xs text-slate-500">
            The judge agrees with every training label: nothing to draft from.
          </span>
        )}
        {draft.message && (
          <span role="alert" className="text-xs text-rose-800">
            {draft.message}
          </span>
        )}
      </form>
      <form onSubmit={submitTo(askStart)} className="space-y-2" data-testid="align-form">
        <input type="hidden" name="runId" value={runId} />
        <input type="hidden" name="metric" value={metric} />
        <label className="block text-sm">
          <span className="block text-xs text-slate-600">
            Guidance added to the judge&apos;s instructions (optional; read and edit a draft before you use it)
          </span>
          <textarea
            name="guidance"
            value={guidance}
            onChange={(event) => setGuidance(event.target.value)}
            maxLength={2000}
            rows={3}
            className="mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm"
            data-testid="alignment-guidance"
          />
        </label>
        <Button type="submit" variant="primary" className="text-sm" disabled={starting} data-testid="start-alignment">
          {starting ? "Starting…" : `Align, then measure on the ${heldOut} held-out labels`}
        </Button>
        {start.message && (
          <p role="alert" className="text-sm text-rose-800" data-testid="alignment-refused">
            {start.message}
          </p>
        )}
      </form>
    </div>
  );
}
