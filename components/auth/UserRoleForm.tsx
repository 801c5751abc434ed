"use client";

import { useActionState } from "react";
import { setUserRole, type SetUserRoleState } from "@/app/actions/setUserRole";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

const ROLE_CHOICES = ["viewer", "runner", "admin"] as const;

/** One user's role, as a select and a save button. */
export function UserRoleForm({ userId, email, role }: { userId: string; email: string; role: string }) {
  const [state, action, pending] = useActionState<SetUserRoleState, FormData>(setUserRole, {
    ok: false,
    message: null,
  });
  return (
    <form onSubmit={submitTo(action)} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <label className="sr-only" htmlFor={`role-${userId}`}>
        Role of {email}
      </label>
      <select
        id={`role-${userId}`}
        name="role"
        defaultValue={role}
        className="rounded border border-slate-300 bg-white px-1 py-0.5 text-sm"
      >
        {ROLE_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
      <Button size="xs" disabled={pending}>
        Save
      </Button>
      {state.message && (
        <span role="status" className={state.ok ? "text-xs text-emerald-700" : "text-xs text-red-700"}>
          {state.message}
        </span>
      )}
    </form>
  );
}
