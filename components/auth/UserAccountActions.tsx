"use client";

import { useActionState, useState } from "react";
import { removeUser, type RemoveUserState } from "@/app/actions/removeUser";
import { resetUserPassword, type ResetUserPasswordState } from "@/app/actions/resetUserPassword";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/passwordPolicy";

const SUMMARY = "cursor-pointer select-none text-xs text-indigo-700 underline-offset-2 hover:underline";

/**
 * One user's password reset and removal, each behind a disclosure so neither
 * happens by a stray click; removal also waits for "Yes, remove <email>". A
 * user without a password (single sign-on only) has no reset: their identity
 * provider decides whether they sign in. Your own row has no removal.
 */
export function UserAccountActions({
  userId,
  email,
  hasPassword,
  isYou,
}: {
  userId: string;
  email: string;
  hasPassword: boolean;
  isYou: boolean;
}) {
  const [confirmed, setConfirmed] = useState(false);
  const [reset, resetAction, resetting] = useActionState<ResetUserPasswordState, FormData>(resetUserPassword, {
    ok: false,
    message: null,
  });
  const [removal, removeAction, removing] = useActionState<RemoveUserState, FormData>(removeUser, {
    ok: false,
    message: null,
  });
  return (
    <div className="flex max-w-xs flex-col gap-1">
      {hasPassword ? (
        <details>
          <summary className={SUMMARY}>Reset password</summary>
          <form
            key={reset.ok ? reset.message : "reset"}
            onSubmit={submitTo(resetAction)}
            className="mt-1 flex flex-wrap items-center gap-2"
          >
            <input type="hidden" name="userId" value={userId} />
            <label className="sr-only" htmlFor={`password-${userId}`}>
              New password for {email}
            </label>
            <input
              id={`password-${userId}`}
              name="password"
              type="password"
              required
              minLength={MIN_PASSWORD_LENGTH}
              autoComplete="new-password"
              placeholder={`${MIN_PASSWORD_LENGTH}+ characters`}
              className="w-40 rounded border border-slate-300 bg-white px-1 py-0.5 text-sm text-slate-900"
            />
            <Button size="xs" disabled={resetting}>
              Set password
            </Button>
          </form>
        </details>
      ) : (
        <span className="text-xs text-slate-600">
          No password to reset: single sign-on accounts are managed at your identity provider.
        </span>
      )}
      {reset.message && (
        <span role="status" className={reset.ok ? "text-xs text-emerald-700" : "text-xs text-red-700"}>
          {reset.message}
        </span>
      )}
      {isYou ? (
        <span className="text-xs text-slate-600">You cannot remove your own account; ask another admin.</span>
      ) : (
        <details>
          <summary className={SUMMARY}>Remove</summary>
          <form onSubmit={submitTo(removeAction)} className="mt-1 flex flex-col items-start gap-1">
            <input type="hidden" name="userId" value={userId} />
            <span className="text-xs text-slate-600">Their sessions end; runs and datasets they made stay.</span>
            <label className="flex items-center gap-1 text-xs text-slate-800">
              <input
                type="checkbox"
                name="confirm"
                value={email}
                checked={confirmed}
                onChange={(event) => setConfirmed(event.target.checked)}
              />
              Yes, remove {email}
            </label>
            <Button size="xs" variant="danger" disabled={!confirmed || removing} aria-label={`Remove user ${email}`}>
              Remove user
            </Button>
          </form>
        </details>
      )}
      {removal.message && (
        <span role="status" className={removal.ok ? "text-xs text-emerald-700" : "text-xs text-red-700"}>
          {removal.message}
        </span>
      )}
    </div>
  );
}
