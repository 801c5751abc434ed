"use client";

import { useActionState } from "react";
import { clearSignInPause, type ClearSignInPauseState } from "@/app/actions/clearSignInPause";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/**
 * A user whose password sign-in is paused (too many failed sign-ins for their email, from anyone): until
 * when, and a button that opens it again now. Nothing while it is open, but the answer to a clear.
 */
export function SignInPauseControl({
  userId,
  email,
  pausedUntil,
}: {
  userId: string;
  email: string;
  /** ISO time the pause ends, or null when sign-in is open. */
  pausedUntil: string | null;
}) {
  const [state, action, pending] = useActionState<ClearSignInPauseState, FormData>(clearSignInPause, {
    ok: false,
    message: null,
  });
  if (!pausedUntil && !state.message) return null;
  return (
    <div className="mb-1 flex flex-col items-start gap-1" data-testid="sign-in-pause">
      {pausedUntil && (
        <form onSubmit={submitTo(action)} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="userId" value={userId} />
          <span className="text-xs text-amber-800">
            Password sign-in paused until {pausedUntil.slice(11, 16)} UTC (too many failed sign-ins)
          </span>
          <Button size="xs" disabled={pending} aria-label={`Clear pause for ${email}`}>
            Clear pause
          </Button>
        </form>
      )}
      {state.message && (
        <span role="status" className={state.ok ? "text-xs text-emerald-700" : "text-xs text-red-700"}>
          {state.message}
        </span>
      )}
    </div>
  );
}
