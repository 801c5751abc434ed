"use client";

import { useActionState, useState } from "react";
import { createApiKey, type CreateApiKeyState } from "@/app/actions/createApiKey";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";
import type { Role } from "@/lib/auth/roles";

const FIELD = "rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900";

/** Names a new key, picks its role (up to the user's own) and expiry; the key itself is shown once, here. */
export function CreateApiKeyForm({ roles }: { roles: readonly Role[] }) {
  const [state, action, pending] = useActionState<CreateApiKeyState, FormData>(createApiKey, {
    ok: false,
    message: null,
  });
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div className="space-y-3 text-sm">
      <h2 className="font-medium text-slate-700">Create a key</h2>
      <form
        key={state.key ?? "create-key"}
        onSubmit={submitTo(action)}
        className="flex flex-wrap items-end gap-2"
        data-testid="create-api-key"
      >
        <label className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-700">Name</span>
          <input name="name" required maxLength={64} placeholder="CI on main" className={`${FIELD} w-56`} />
        </label>
        <label className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-700">Role</span>
          <select name="role" defaultValue={roles.includes("runner") ? "runner" : roles[0]} className={FIELD}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-700">Expires after</span>
          <select name="expiresInDays" defaultValue="90" className={FIELD}>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
            <option value="365">a year</option>
            <option value="">never (until revoked)</option>
          </select>
        </label>
        <Button size="sm" disabled={pending}>
          Create key
        </Button>
      </form>
      {state.message && !state.key && (
        <p role="status" className={state.ok ? "text-emerald-700" : "text-red-700"}>
          {state.message}
        </p>
      )}
      {state.key && (
        <div role="status" className="space-y-1 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2">
          <p className="text-emerald-900">{state.message} Copy it now: it is shown once, and only its hash is kept.</p>
          <div className="flex items-center gap-2">
            <code
              data-testid="new-api-key"
              className="break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900"
            >
              {state.key}
            </code>
            <Button
              type="button"
              size="xs"
              variant="secondary"
              onClick={() =>
                void navigator.clipboard?.writeText(state.key ?? "").then(() => setCopied(state.key ?? null))
              }
            >
              {copied === state.key ? "Copied" : "Copy"}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
