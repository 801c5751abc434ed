"use client";

import { useActionState, useState } from "react";
import { createUser, type CreateUserState } from "@/app/actions/createUser";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwordPolicy";

const FIELD = "rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900";

/** An admin adds an account: email, name, role and the first password, as `npm run user:create` does. */
export function CreateUserForm() {
  const [state, action, pending] = useActionState<CreateUserState, FormData>(createUser, { ok: false, message: null });
  // Each answer is a new state object: typing again hides this one, and the next answer shows.
  const [dismissed, setDismissed] = useState<CreateUserState | null>(null);
  return (
    <div className="space-y-2 text-sm">
      <h2 className="font-medium text-slate-700">Add a user</h2>
      <p id="create-user-help" className="text-slate-600">
        The account signs in with the password you set (at least {MIN_PASSWORD_LENGTH} characters); give it to them
        yourself. Its email counts as verified, so it can later sign in through single sign-on too.
      </p>
      {/* Keyed by the last success, so the fields empty once the account exists. */}
      <form
        key={state.ok ? state.message : "create-user"}
        onSubmit={submitTo(action)}
        className="flex flex-wrap items-end gap-2"
        data-testid="create-user"
        aria-describedby="create-user-help"
        onInput={() => setDismissed(state)}
      >
        <label className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-700">Email</span>
          <input name="email" type="email" required maxLength={320} autoComplete="off" className={`${FIELD} w-56`} />
        </label>
        <label className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-700">Name (optional)</span>
          <input name="name" maxLength={200} autoComplete="off" className={`${FIELD} w-40`} />
        </label>
        <label className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-700">Role</span>
          <select name="role" defaultValue="viewer" className={FIELD}>
            <option value="viewer">viewer</option>
            <option value="runner">runner</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <label className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-700">Initial password</span>
          <input
            name="password"
            type="password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            autoComplete="new-password"
            className={`${FIELD} w-48`}
          />
        </label>
        <Button size="sm" disabled={pending}>
          Create user
        </Button>
      </form>
      {state.message && dismissed !== state && (
        <p role="status" className={state.ok ? "text-emerald-700" : "text-red-700"}>
          {state.message}
        </p>
      )}
    </div>
  );
}
