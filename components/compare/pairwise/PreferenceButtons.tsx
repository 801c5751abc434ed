"use client";

import { startTransition, useActionState, useEffect, useRef } from "react";
import { savePreference, type SavePreferenceState } from "@/app/actions/savePairwisePreference";
import { buttonClass } from "@/components/ui/Button";
import { isNotAShortcut } from "@/components/ui/typingTarget";

const CHOICES = [
  { value: "a", key: "a", label: "A is better" },
  { value: "tie", key: "t", label: "Tie" },
  { value: "b", key: "b", label: "B is better" },
] as const;

/**
 * A reviewer's own A/B verdict on the two responses: A better, tie or B better, by button or key (a, t, b; x
 * withdraws it), saved at once. Stored for these two responses, so it counts wherever they are compared again.
 */
export function PreferenceButtons({
  baselineRunId,
  candidateRunId,
  baselineRowId,
  current,
}: {
  baselineRunId: string;
  candidateRunId: string;
  baselineRowId: string;
  current: "a" | "b" | "tie" | null;
}) {
  const [state, submit, pending] = useActionState<SavePreferenceState, FormData>(savePreference, {
    message: null,
    choice: current,
  });
  const form = useRef<HTMLFormElement>(null);
  const choose = (choice: string) => {
    const data = new FormData(form.current ?? undefined);
    data.set("choice", choice);
    startTransition(() => submit(data));
  };
  const chooseRef = useRef(choose);
  chooseRef.current = choose;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isNotAShortcut(event)) return;
      const choice = CHOICES.find((c) => c.key === event.key)?.value ?? (event.key === "x" ? "clear" : null);
      if (choice) chooseRef.current(choice);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const chosen = pending ? null : state.choice;
  return (
    <form ref={form} className="space-y-1" data-testid="preference-form" onSubmit={(event) => event.preventDefault()}>
      <input type="hidden" name="baselineRunId" value={baselineRunId} />
      <input type="hidden" name="candidateRunId" value={candidateRunId} />
      <input type="hidden" name="baselineRowId" value={baselineRowId} />
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Your verdict">
        {CHOICES.map((choice) => (
          <button
            key={choice.value}
            type="button"
            aria-pressed={chosen === choice.value}
            disabled={pending}
            onClick={() => choose(choice.value)}
            className={buttonClass({ variant: chosen === choice.value ? "primary" : "secondary", size: "sm" })}
            data-testid={`prefer-${choice.value}`}
          >
            {choice.label}{" "}
            <kbd className="ml-1 rounded border border-current px-1 text-[10px] opacity-70">{choice.key}</kbd>
          </button>
        ))}
        {chosen && (
          <button
            type="button"
            onClick={() => choose("clear")}
            className="text-xs text-slate-500 underline"
            disabled={pending}
          >
            withdraw (x)
          </button>
        )}
        <span className="text-xs text-slate-500" aria-live="polite" data-testid="preference-status">
          {pending ? "Saving…" : chosen ? "Saved." : "Not given yet."}
        </span>
      </div>
      {state.message && (
        <p role="alert" className="text-xs text-rose-800">
          {state.message}
        </p>
      )}
    </form>
  );
}
