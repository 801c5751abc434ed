"use client";

import { useActionState } from "react";
import { setSignUpEnabled, type SetSignUpEnabledState } from "@/app/actions/setSignUpEnabled";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";
import { SIGN_UP_MEANING } from "@/lib/auth/signUpWording";

/** Turns open sign-up on or off; the current state, and what "on" means, are said in words next to the button. */
export function SignUpToggle({ enabled, domains }: { enabled: boolean; domains: string[] }) {
  const [state, action, pending] = useActionState<SetSignUpEnabledState, FormData>(setSignUpEnabled, {
    ok: false,
    message: null,
  });
  return (
    <form onSubmit={submitTo(action)} className="space-y-2 text-sm" data-testid="signup-toggle">
      <input type="hidden" name="signUp" value={enabled ? "off" : "on"} />
      <div className="flex flex-wrap items-center gap-3">
        <span>
          Sign-up is <strong>{enabled ? "on" : "off"}</strong>
          {enabled
            ? domains.length > 0
              ? `, for email addresses at ${domains.join(", ")}.`
              : ", for any email address."
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
      </div>
      <p
        className={enabled ? "rounded border border-amber-300 bg-amber-50 p-2 text-amber-900" : "text-slate-600"}
        data-testid="signup-meaning"
      >
        {SIGN_UP_MEANING}
        {domains.length > 0 && ` The domain list below narrows that to addresses at ${domains.join(", ")}.`}
      </p>
    </form>
  );
}
