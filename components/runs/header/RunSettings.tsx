"use client";

import { useActionState, useState } from "react";
import { deleteRun } from "@/app/actions/deleteRun";
import { updateRun, type UpdateRunState } from "@/app/actions/updateRun";
import { Button } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { submitTo } from "@/components/ui/submitTo";

type Props = {
  runId: string;
  name: string;
  tags: string[];
  /** What the viewer's role allows (the server checks again; this only hides what would be refused). */
  canUpdate: boolean;
  canDelete: boolean;
};

/** Rename, tag, or delete a run (deleting asks for confirmation). */
export function RunSettings({ runId, name, tags, canUpdate, canDelete }: Props) {
  const [state, action, pending] = useActionState<UpdateRunState, FormData>(updateRun, { ok: false, message: null });
  const [confirming, setConfirming] = useState(false);
  return (
    <CardFrame as="details" padding="sm" className="text-sm">
      <summary className="cursor-pointer font-medium text-slate-700">Name, tags and deletion</summary>
      {canUpdate && (
        <form onSubmit={submitTo(action)} className="mt-2 flex flex-wrap items-end gap-2">
          <input type="hidden" name="runId" value={runId} />
          <label className="flex flex-col gap-1 text-xs text-slate-600">
            Name
            <input
              name="name"
              defaultValue={name}
              maxLength={200}
              className="w-72 rounded border border-slate-300 px-2 py-1 text-sm"
            />
          </label>
          <label className="flex flex-col gap-1 text-xs text-slate-600">
            Tags (comma-separated)
            <input
              name="tags"
              defaultValue={tags.join(", ")}
              className="w-72 rounded border border-slate-300 px-2 py-1 text-sm"
            />
          </label>
          <Button disabled={pending}>Save</Button>
          {state.message && (
            <span role="status" className={state.ok ? "text-emerald-700" : "text-red-700"}>
              {state.message}
            </span>
          )}
        </form>
      )}
      {canDelete && (
        <div className="mt-3 border-t border-slate-100 pt-2">
          {!confirming ? (
            <button type="button" onClick={() => setConfirming(true)} className="text-red-700 hover:underline">
              Delete this run…
            </button>
          ) : (
            <form action={deleteRun} className="flex items-center gap-2">
              <input type="hidden" name="runId" value={runId} />
              <input type="hidden" name="confirm" value="delete" />
              <span className="text-red-800">Delete the run and all its judgments? This cannot be undone.</span>
              <button className="rounded bg-red-600 px-3 py-1 text-white hover:bg-red-700">Delete</button>
              <Button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </Button>
            </form>
          )}
        </div>
      )}
    </CardFrame>
  );
}
