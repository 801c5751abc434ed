"use client";

import { useActionState, useState } from "react";
import { revokeApiKey, type RevokeApiKeyState } from "@/app/actions/revokeApiKey";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/** Revokes one key, asked twice: requests that carry it are refused from the next one on. */
export function RevokeApiKeyButton({ keyId, name }: { keyId: string; name: string }) {
  const [state, action, pending] = useActionState<RevokeApiKeyState, FormData>(revokeApiKey, {
    ok: false,
    message: null,
  });
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <Button size="xs" variant="danger" onClick={() => setAsking(true)} aria-label={`Revoke the key ${name}`}>
        Revoke
      </Button>
    );
  return (
    <form onSubmit={submitTo(action)} className="flex items-center gap-2 whitespace-nowrap">
      <input type="hidden" name="keyId" value={keyId} />
      <span className="text-xs text-slate-700" title="Anything that uses it stops working at once.">
        Revoke it now?
      </span>
      <Button size="xs" variant="danger" disabled={pending}>
        Yes, revoke
      </Button>
      <Button size="xs" type="button" onClick={() => setAsking(false)}>
        Keep
      </Button>
      {state.message && !state.ok && (
        <span role="status" className="text-xs text-red-700">
          {state.message}
        </span>
      )}
    </form>
  );
}
