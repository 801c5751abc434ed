"use client";

import { useRouter } from "next/navigation";
import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import { saveLabel, type SaveLabelState } from "@/app/actions/saveLabel";
import { OTHER_RESPONSE_TEXT } from "@/lib/contract/rowLabelMarks";

/** One thing a reviewer labels on this row: a metric, or one chunk of a per-chunk metric. */
export type LabelTarget = {
  key: string;
  metric: string;
  /** What the list shows: "groundedness", "chunk_relevance · chunk 2". */
  title: string;
  kind: "rating" | "score";
  chunkPosition: number | null;
  /** The judge's verdict in this run, in words ("yes", "0.42 (fail)", "error"). */
  judge: string;
  /** The current label ("yes", "no", "0.8") or null. */
  label: string | null;
  /** "by Local admin, 2026-11-22 18:03 UTC (upload)". */
  labelledWhen: string | null;
  /** Why, in the labeller's words; null without one. */
  reason: string | null;
  disagrees: boolean;
  /** The label was given on another response than this run judged: shown as such, compared with nothing. */
  otherResponse: boolean;
  /** The key that picks this line (lib/labels/labelLines.ts), or null past the last key. */
  lineKey: string | null;
};

const INITIAL: SaveLabelState = { ok: true, message: null };

/**
 * The drill-down's label controls, keyboard first. The drill-down's own keys
 * (j / k / n, components/ui/KeyboardNav) stay as they are until a target is
 * picked: a line's key (1–9, then letters) picks it, ↑ / ↓ move the pick,
 * y / n label it (and move to the next target), Escape lets go; a score
 * target's key puts the cursor in its score field. ] or Shift+N opens the
 * next row to label. These keys are read in the capture phase so that, with
 * a target picked, n labels instead of moving to the next failed row. A role
 * that cannot label gets the lines read-only: no buttons, no keys.
 */
export function LabelControls({
  ids,
  targets,
  nextToLabelHref,
  canLabel,
}: {
  ids: { runId: string; datasetId: string; rowId: string };
  targets: LabelTarget[];
  nextToLabelHref: string | null;
  canLabel: boolean;
}) {
  const router = useRouter();
  const [state, dispatch, pending] = useActionState(saveLabel, INITIAL);
  const [picked, setPicked] = useState<number | null>(null);
  const scoreInputs = useRef(new Map<number, HTMLInputElement>());

  const submit = (target: LabelTarget, value: string, reason?: string) => {
    const form = new FormData();
    if (reason !== undefined) form.set("reason", reason);
    form.set("runId", ids.runId);
    form.set("datasetId", ids.datasetId);
    form.set("rowId", ids.rowId);
    form.set("metric", target.metric);
    if (target.chunkPosition !== null) form.set("chunkPosition", String(target.chunkPosition));
    form.set("value", value);
    startTransition(() => dispatch(form));
  };

  // Held in a ref so the listener registered once always sees this render's values.
  const latest = useRef({ picked, targets, nextToLabelHref, submit });
  latest.current = { picked, targets, nextToLabelHref, submit };

  useEffect(() => {
    if (!canLabel) return;
    const onKey = (event: KeyboardEvent) => {
      const element = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (element?.closest("input, textarea, select, [contenteditable=true]")) return;
      const { picked: current, targets: all, nextToLabelHref: nextHref, submit: send } = latest.current;
      const take = () => {
        event.preventDefault();
        event.stopPropagation();
      };
      if (event.key === "]" || event.key === "N") {
        if (!nextHref) return;
        take();
        router.push(nextHref);
        return;
      }
      const pick = (index: number) => {
        take();
        setPicked(index);
        if (all[index].kind === "score") scoreInputs.current.get(index)?.focus();
      };
      const keyed = all.findIndex((target) => target.lineKey === event.key);
      if (keyed >= 0) {
        pick(keyed);
        return;
      }
      if (current === null) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        const next = current + (event.key === "ArrowDown" ? 1 : -1);
        if (next >= 0 && next < all.length) pick(next);
        else take();
        return;
      }
      if (event.key === "Escape") {
        take();
        setPicked(null);
        return;
      }
      const target = all[current];
      if ((event.key === "y" || event.key === "n") && target.kind === "rating") {
        take();
        send(target, event.key === "y" ? "yes" : "no");
        setPicked(current + 1 < all.length ? current + 1 : null);
      }
    };
    // Capture phase: before KeyboardNav's listener, so a picked target's n is a label, not a move.
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [router, canLabel]);

  return (
    <div data-testid="label-controls">
      <ol className="space-y-1.5">
        {targets.map((target, index) => (
          <li
            key={target.key}
            data-label-target={target.title}
            aria-current={picked === index ? "true" : undefined}
            className={`flex flex-wrap items-center gap-2 rounded border px-2 py-1.5 text-sm ${
              picked === index ? "border-indigo-500 ring-2 ring-indigo-300" : "border-slate-200"
            }`}
          >
            {canLabel && (
              <kbd
                className="w-5 rounded border border-slate-300 bg-slate-50 text-center font-mono text-xs text-slate-700"
                data-testid="label-line-key"
              >
                {target.lineKey ?? "↓"}
              </kbd>
            )}
            <span className="min-w-40 font-mono text-xs">{target.title}</span>
            <span className="text-xs text-slate-600">judge: {target.judge}</span>
            <span
              className={`text-xs ${
                target.otherResponse
                  ? "text-slate-500"
                  : target.disagrees
                    ? "font-semibold text-amber-800"
                    : "text-slate-700"
              }`}
              data-testid="current-label"
              data-other-response={target.otherResponse ? "true" : "false"}
            >
              label: {target.label ?? "none"}
              {target.otherResponse ? ` (${OTHER_RESPONSE_TEXT})` : target.disagrees && " (disagrees)"}
            </span>
            {canLabel && (
              <span className="ml-auto flex items-center gap-1">
                {target.kind === "rating" ? (
                  <>
                    <LabelButton
                      pressed={!target.otherResponse && target.label === "yes"}
                      onClick={() => submit(target, "yes")}
                      text="Yes"
                      name={`${target.title}: yes`}
                    />
                    <LabelButton
                      pressed={!target.otherResponse && target.label === "no"}
                      onClick={() => submit(target, "no")}
                      text="No"
                      name={`${target.title}: no`}
                    />
                  </>
                ) : (
                  <form
                    className="flex items-center gap-1"
                    onSubmit={(event) => {
                      event.preventDefault();
                      const value = new FormData(event.currentTarget).get("score");
                      if (typeof value === "string") submit(target, value);
                      setPicked(null);
                    }}
                  >
                    <label className="sr-only" htmlFor={`score-${target.key}`}>
                      Score label for {target.title}, 0 to 1
                    </label>
                    <input
                      id={`score-${target.key}`}
                      name="score"
                      type="number"
                      min={0}
                      max={1}
                      step={0.01}
                      defaultValue={target.label ?? ""}
                      key={target.label ?? ""}
                      ref={(element) => {
                        if (element) scoreInputs.current.set(index, element);
                        else scoreInputs.current.delete(index);
                      }}
                      onKeyDown={(event) => {
                        if (event.key === "Escape") {
                          event.currentTarget.blur();
                          setPicked(null);
                        }
                      }}
                      className="w-20 rounded border border-slate-300 px-1 py-0.5 text-sm"
                    />
                    <button
                      type="submit"
                      className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100"
                    >
                      Save
                    </button>
                  </form>
                )}
                {/* A label given on another response is another run's to clear: labelling here replaces it instead. */}
                {target.label !== null && !target.otherResponse && (
                  <button
                    type="button"
                    onClick={() => submit(target, "clear")}
                    aria-label={`Clear the label of ${target.title}`}
                    className="rounded px-1.5 py-0.5 text-xs text-slate-600 hover:bg-slate-100"
                  >
                    Clear
                  </button>
                )}
              </span>
            )}
            {target.labelledWhen && (
              <span className={`basis-full text-xs text-slate-500 ${canLabel ? "pl-7" : ""}`}>
                {target.labelledWhen}
              </span>
            )}
            {target.label !== null && !target.otherResponse && (canLabel || target.reason) && (
              <LabelReason
                target={target}
                editable={canLabel}
                onSave={(reason) => target.label !== null && submit(target, target.label, reason)}
              />
            )}
          </li>
        ))}
      </ol>
      <p className="mt-2 min-h-5 text-xs" role="status" aria-live="polite">
        {pending
          ? "Saving…"
          : state.message && <span className={state.ok ? "text-emerald-700" : "text-red-700"}>{state.message}</span>}
      </p>
    </div>
  );
}

/**
 * Why the label was given, in the labeller's words: shown under the label, and written or changed in a field
 * that opens under it (an aligned judge's worked example shows it). Enter saves; an emptied field clears it.
 */
function LabelReason({
  target,
  editable,
  onSave,
}: {
  target: LabelTarget;
  editable: boolean;
  onSave: (reason: string) => void;
}) {
  if (!editable) return <span className="basis-full text-xs text-slate-700">reason: {target.reason}</span>;
  return (
    <details className="basis-full pl-7 text-xs" data-testid="label-reason">
      <summary className="cursor-pointer text-slate-600">
        {target.reason ? `reason: ${target.reason}` : "Add a reason (optional)"}
      </summary>
      <form
        className="mt-1 flex items-center gap-1"
        onSubmit={(event) => {
          event.preventDefault();
          const value = new FormData(event.currentTarget).get("reason");
          if (typeof value === "string") onSave(value);
        }}
      >
        <label className="sr-only" htmlFor={`reason-${target.key}`}>
          Reason for the label of {target.title}
        </label>
        <input
          id={`reason-${target.key}`}
          name="reason"
          defaultValue={target.reason ?? ""}
          key={target.reason ?? ""}
          maxLength={2000}
          className="min-w-0 flex-1 rounded border border-slate-300 px-1 py-0.5 text-xs"
        />
        <button type="submit" className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100">
          Save reason
        </button>
      </form>
    </details>
  );
}

function LabelButton({
  pressed,
  onClick,
  text,
  name,
}: {
  pressed: boolean;
  onClick: () => void;
  text: string;
  name: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-label={name}
      onClick={onClick}
      className={`rounded border px-2 py-0.5 text-xs ${
        pressed ? "border-slate-800 bg-slate-800 text-white" : "border-slate-300 hover:bg-slate-100"
      }`}
    >
      {text}
    </button>
  );
}
