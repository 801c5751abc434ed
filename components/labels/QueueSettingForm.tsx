"use client";

import { useActionState } from "react";
import { saveLabelQueueSetting, type QueueSettingState } from "@/app/actions/saveLabelQueueSetting";

const INITIAL: QueueSettingState = { ok: true, message: null };

/** Labels per row (1–5) and whether labellers see the judge's verdict before their own label. */
export function QueueSettingForm({
  runId,
  metric,
  labelsPerRow,
  hideJudge,
}: {
  runId: string;
  metric: string;
  labelsPerRow: number;
  hideJudge: boolean;
}) {
  const [state, action, pending] = useActionState(saveLabelQueueSetting, INITIAL);
  return (
    <form action={action} className="flex flex-wrap items-end gap-3 text-sm" data-testid="queue-setting">
      <input type="hidden" name="runId" value={runId} />
      <input type="hidden" name="metric" value={metric} />
      <label>
        <span className="block text-xs text-slate-600">Labels per row</span>
        <select
          name="labelsPerRow"
          defaultValue={String(labelsPerRow)}
          className="rounded border border-slate-300 px-1 py-1 text-sm"
        >
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              {n === 1 ? "1 (one person)" : `${n} people, blind`}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1 text-xs text-slate-700">
        <input type="checkbox" name="hideJudge" defaultChecked={hideJudge} />
        Hide the judge&apos;s verdict until a labeller gives theirs
      </label>
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50 disabled:opacity-50"
      >
        Save
      </button>
      {state.message && (
        <span role="status" className={`text-xs ${state.ok ? "text-emerald-700" : "text-red-700"}`}>
          {state.message}
        </span>
      )}
    </form>
  );
}
