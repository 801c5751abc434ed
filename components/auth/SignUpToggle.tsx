"use client";

import { useActionState } from "react";
import { setSignUpEnabled, type SetSignUpEnabledState } from "@/app/actions/setSignUpEnabled";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/** Turns open sign-up on or off; the current state is said in words next to the button. */
export function SignUpToggle({ enabled }: { enabled: boolean }) {
  const [state, action, pending] = useActionState<SetSignUpEnabledState, FormData>(setSignUpEnabled, {
    ok: false,
    message: null,
  });
  return (
    <form onSubmit={submitTo(action)} className="flex flex-wrap items-center gap-3 text-sm" data-testid="signup-toggle">
      <input type="hidden" name="signUp" value={enabled ? "off" : "on"} />
      <span>
        Sign-up is <strong>{enabled ? "on" : "off"}</strong>
        {enabled
          ? ": anyone who can reach this server can create a viewer account."
          : ": only admins (here or with npm run user:create) create accounts."}
      </span>
      <Button size="sm" disabled={pending}>
        {enabled ? "Turn sign-up off" : "Turn sign-up on"}
      </Button>
      {state.message && (
        <span role="status" className={state.ok ? "text-emerald-700" : "text-red-700"}>
          {state.message}
        </span>
      )}
    </form>
  );
}
