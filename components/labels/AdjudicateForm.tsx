"use client";

import { useActionState } from "react";
import { adjudicateLabel, type AdjudicateState } from "@/app/actions/adjudicateLabel";

const INITIAL: AdjudicateState = { ok: true, message: null };

/** An admin's deciding label for one key where people differ: the value, a reason (required), or removal. */
export function AdjudicateForm({
  runId,
  rowId,
  metric,
  chunkPosition,
  kind,
  decided,
}: {
  runId: string;
  rowId: string;
  metric: string;
  chunkPosition: number;
  kind: "rating" | "score";
  /** The current deciding value, when there is one. */
  decided: string | null;
}) {
  const [state, action, pending] = useActionState(adjudicateLabel, INITIAL);
  return (
    <form action={action} className="mt-1 flex flex-wrap items-end gap-2 text-xs" data-testid="adjudicate-form">
      <input type="hidden" name="runId" value={runId} />
      <input type="hidden" name="rowId" value={rowId} />
      <input type="hidden" name="metric" value={metric} />
      <input type="hidden" name="chunkPosition" value={chunkPosition} />
      <label className="flex flex-col">
        <span className="text-slate-600">Deciding label</span>
        {kind === "rating" ? (
          <select name="value" defaultValue={decided ?? "yes"} className="rounded border border-slate-300 px-1 py-0.5">
            <option value="yes">yes</option>
            <option value="no">no</option>
          </select>
        ) : (
          <input
            name="value"
            type="number"
            min={0}
            max={1}
            step={0.01}
            defaultValue={decided ?? ""}
            required
            className="w-20 rounded border border-slate-300 px-1 py-0.5"
          />
        )}
      </label>
      <label className="flex min-w-48 flex-1 flex-col">
        <span className="text-slate-600">Why (kept in the history)</span>
        <input name="reason" required maxLength={2000} className="rounded border border-slate-300 px-1 py-0.5" />
      </label>
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-indigo-600 px-2 py-1 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
      >
        {decided ? "Change decision" : "Decide"}
      </button>
      {decided && (
        <button
          type="submit"
          name="value"
          value="clear"
          formNoValidate
          disabled={pending}
          className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50"
        >
          Remove the decision
        </button>
      )}
      {state.message && (
        <span role="status" className={state.ok ? "text-emerald-700" : "text-red-700"}>
          {state.message}
        </span>
      )}
    </form>
  );
}
