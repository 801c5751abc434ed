"use client";

import { useActionState } from "react";
import { setAllowedEmailDomains, type SetAllowedEmailDomainsState } from "@/app/actions/setAllowedEmailDomains";
import { Button } from "@/components/ui/Button";
import { submitTo } from "@/components/ui/submitTo";

/** The email domains sign-up is open to, as one text field (empty: any domain). */
export function AllowedDomainsForm({ domains }: { domains: string[] }) {
  const [state, action, pending] = useActionState<SetAllowedEmailDomainsState, FormData>(setAllowedEmailDomains, {
    ok: false,
    message: null,
  });
  return (
    <form onSubmit={submitTo(action)} className="space-y-2 text-sm" data-testid="allowed-domains">
      <label htmlFor="allowed-domains" className="block font-medium text-slate-700">
        Allowed email domains for sign-up
      </label>
      <p id="allowed-domains-help" className="text-slate-600">
        Separate domains with commas, e.g. <code>example.com, lab.example.org</code>. Each is matched exactly (list
        subdomains too). Leave empty to accept any domain. Admins create accounts of any domain.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id="allowed-domains"
          name="domains"
          defaultValue={domains.join(", ")}
          placeholder="any domain"
          aria-describedby="allowed-domains-help"
          maxLength={5_000}
          className="min-w-64 flex-1 rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
        />
        <Button size="sm" disabled={pending}>
          Save domains
        </Button>
      </div>
      {state.message && (
        <p role="status" className={state.ok ? "text-emerald-700" : "text-red-700"}>
          {state.message}
        </p>
      )}
    </form>
  );
}
