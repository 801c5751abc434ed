"use client";

import { useActionState } from "react";
import { signUp, type SignUpState } from "@/app/actions/signUp";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

const INPUT = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm text-slate-900";

/** Shown only while an admin has sign-up on; a new account is a viewer until an admin changes its role. */
export function SignUpForm({ minPasswordLength }: { minPasswordLength: number }) {
  const [state, action, pending] = useActionState<SignUpState, FormData>(signUp, { message: null });
  return (
    <form onSubmit={submitTo(action)} className="space-y-3" data-testid="signup-form">
      <label className="block text-sm text-slate-700">
        Name
        <input name="name" autoComplete="name" required maxLength={200} className={INPUT} />
      </label>
      <label className="block text-sm text-slate-700">
        Email
        <input name="email" type="email" autoComplete="email" required maxLength={320} className={INPUT} />
      </label>
      <label className="block text-sm text-slate-700">
        Password (at least {minPasswordLength} characters)
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minPasswordLength}
          maxLength={256}
          className={INPUT}
        />
      </label>
      {state.message && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      )}
      <Button disabled={pending} size="lg" className="w-full">
        {pending ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}
