"use client";

import { useActionState, useState } from "react";
import { deleteDataset, type DeleteDatasetState } from "@/app/actions/deleteDataset";
import { renameDataset, type RenameDatasetState } from "@/app/actions/renameDataset";
import { Button } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { submitTo } from "@/components/ui/submitTo";
import { formatCountOf } from "@/lib/charts/format";

type Props = {
  datasetId: string;
  name: string;
  rowCount: number;
  runCount: number;
  runsInProgress: number;
  /** What the viewer's role allows (the server checks again; this only hides what would be refused). */
  canRename: boolean;
  canDelete: boolean;
};

/** Rename a dataset, or delete it with its runs (the confirmation says how many runs go with it). */
export function DatasetSettings({ datasetId, name, rowCount, runCount, runsInProgress, canRename, canDelete }: Props) {
  const [renamed, renameAction, renaming] = useActionState<RenameDatasetState, FormData>(renameDataset, {
    ok: false,
    message: null,
  });
  const [deletion, deleteAction, deleting] = useActionState<DeleteDatasetState, FormData>(deleteDataset, {
    message: null,
  });
  const [confirming, setConfirming] = useState(false);
  return (
    <CardFrame as="details" padding="sm" className="text-sm" data-testid="dataset-settings">
      <summary className="cursor-pointer font-medium text-slate-700">Settings: name and deletion</summary>
      {canRename && (
        <form onSubmit={submitTo(renameAction)} className="mt-2 flex flex-wrap items-end gap-2">
          <input type="hidden" name="datasetId" value={datasetId} />
          <label className="flex flex-col gap-1 text-xs text-slate-600">
            Dataset name
            <input
              name="name"
              defaultValue={name}
              maxLength={200}
              required
              className="w-80 rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
            />
          </label>
          <Button disabled={renaming}>Rename</Button>
          {renamed.message && (
            <span role="status" className={renamed.ok ? "text-emerald-700" : "text-red-700"}>
              {renamed.message}
            </span>
          )}
        </form>
      )}
      {canDelete && (
        <div className="mt-3 border-t border-slate-100 pt-2">
          {!confirming ? (
            <button type="button" onClick={() => setConfirming(true)} className="text-red-700 hover:underline">
              Delete this dataset…
            </button>
          ) : runsInProgress > 0 ? (
            <p role="alert" className="text-red-800">
              {runsWord(runsInProgress)} on this dataset {runsInProgress === 1 ? "is" : "are"} still in progress. Cancel{" "}
              {runsInProgress === 1 ? "it" : "them"} on the run page, or wait until{" "}
              {runsInProgress === 1 ? "it finishes" : "they finish"}; then the dataset can be deleted.{" "}
              <button type="button" onClick={() => setConfirming(false)} className="text-slate-700 underline">
                Close
              </button>
            </p>
          ) : (
            <form
              onSubmit={submitTo(deleteAction)}
              className="flex flex-wrap items-center gap-2"
              data-testid="delete-dataset-confirm"
            >
              <input type="hidden" name="datasetId" value={datasetId} />
              <input type="hidden" name="confirm" value="delete" />
              <input type="hidden" name="runCount" value={runCount} />
              <span className="text-red-800">
                Delete “{name}”, its {formatCountOf(rowCount, "row")} and{" "}
                {runCount === 0 ? "no runs (there are none)" : `its ${runsWord(runCount)} with all their judgments`}?
                This cannot be undone.
              </span>
              <button
                disabled={deleting}
                className="rounded bg-red-700 px-3 py-1 text-white hover:bg-red-800 disabled:opacity-50"
              >
                Delete dataset{runCount > 0 ? ` and ${runsWord(runCount)}` : ""}
              </button>
              <Button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </Button>
            </form>
          )}
          {deletion.message && (
            <p role="alert" className="mt-2 text-red-800">
              {deletion.message}
            </p>
          )}
        </div>
      )}
    </CardFrame>
  );
}

function runsWord(count: number): string {
  return formatCountOf(count, "run");
}
