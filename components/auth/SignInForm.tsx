"use client";

import { useActionState } from "react";
import { signIn, type SignInState } from "@/app/actions/signIn";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

const INPUT = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm text-slate-900";

/** Email and password. A failure says only that the pair is wrong, never whether the email has an account. */
export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, { message: null });
  return (
    <form onSubmit={submitTo(action)} className="space-y-3" data-testid="signin-form">
      <input type="hidden" name="next" value={next} />
      <label className="block text-sm text-slate-700">
        Email
        <input name="email" type="email" autoComplete="username" required maxLength={320} className={INPUT} />
      </label>
      <label className="block text-sm text-slate-700">
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={256}
          className={INPUT}
        />
      </label>
      {state.message && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      )}
      <Button variant="primary" size="lg" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
