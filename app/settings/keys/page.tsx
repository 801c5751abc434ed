import type { Metadata } from "next";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { CreateApiKeyForm } from "@/components/auth/CreateApiKeyForm";
import { RevokeApiKeyButton } from "@/components/auth/RevokeApiKeyButton";
import { CardFrame } from "@/components/ui/Card";
import { formatDateTime } from "@/lib/charts/format";
import { summaryRole } from "@/lib/auth/apiKeys";
import {
  API_KEY_OWNER_REQUESTS_PER_MINUTE,
  API_KEY_REQUESTS_PER_MINUTE,
  API_KEYS_PER_USER,
} from "@/lib/auth/apiKeyPolicy";
import { roleCan } from "@/lib/auth/permissions";
import { ROLES, roleAtLeast } from "@/lib/auth/roles";
import { listApiKeys } from "@/lib/db/accounts/apiKeyQueries";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys" };

/**
 * A signed-in user's API keys, for CI jobs and scripts that call /api/v1: create one (shown once), see when
 * each was last used, revoke it. An admin sees and may revoke everyone's.
 */
export default async function ApiKeysPage() {
  const user = await requirePageRole("apikeys.own", "/settings/keys");
  const seesAll = roleCan(user.role, "users.manage") && !user.local;
  const keys = user.local ? [] : await listApiKeys(getDb(), seesAll ? null : user.id);
  const now = Date.now();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">API keys</h1>
        <p className="max-w-3xl text-sm text-slate-500">
          A key lets a CI job or a script use Assay&apos;s API (<code>/api/v1</code>, described at{" "}
          <a className="text-indigo-700 underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>
          ) and <code>npm run eval -- --server</code>, sent as <code>Authorization: Bearer …</code>. It acts as you,
          with the role you give it (never more than yours, and lowered with yours), at up to{" "}
          {API_KEY_REQUESTS_PER_MINUTE} requests a minute ({API_KEY_OWNER_REQUESTS_PER_MINUTE.toLocaleString("en-US")}{" "}
          over all your keys). A key works only there: the pages and their forms take a signed-in person, and no key
          manages users, settings or keys. You may hold {API_KEYS_PER_USER} keys at once.
        </p>
      </div>
      {user.local ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Sign-in is off on this server (no ASSAY_AUTH_SECRET), so there are no keys: the API answers requests from this
          machine without one. Keys come with accounts, once sign-in is on.
        </p>
      ) : (
        <CardFrame padding="md">
          <CreateApiKeyForm roles={ROLES.filter((role) => roleAtLeast(user.role, role))} />
        </CardFrame>
      )}
      {!user.local && (
        <CardFrame as="div" padding="none" className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="api-keys-table">
            <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-3 py-2">Name</th>
                <th className="px-3 py-2">Key</th>
                {seesAll && <th className="px-3 py-2">Owner</th>}
                <th className="px-3 py-2">Role</th>
                <th className="px-3 py-2">Created</th>
                <th className="px-3 py-2">Last used</th>
                <th className="px-3 py-2">Expires</th>
                <th className="px-3 py-2" aria-label="Revoke" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {keys.length === 0 && (
                <tr>
                  <td colSpan={seesAll ? 8 : 7} className="px-3 py-6 text-center text-slate-500">
                    No keys yet.
                  </td>
                </tr>
              )}
              {keys.map((key) => {
                const expired = key.expiresAt !== null && key.expiresAt.getTime() < now;
                return (
                  <tr key={key.id}>
                    <td className="px-3 py-2 font-medium text-slate-800">{key.name}</td>
                    <td className="px-3 py-2 font-mono text-xs text-slate-600">{key.start}…</td>
                    {seesAll && <td className="px-3 py-2 text-slate-600">{key.ownerEmail}</td>}
                    <td className="px-3 py-2">{summaryRole(key)}</td>
                    <td className="whitespace-nowrap px-3 py-2 tabular-nums text-slate-600">
                      {formatDateTime(key.createdAt)}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 tabular-nums text-slate-600">
                      {key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "never"}
                    </td>
                    <td
                      className={`whitespace-nowrap px-3 py-2 tabular-nums ${expired ? "text-red-700" : "text-slate-600"}`}
                    >
                      {key.expiresAt ? `${expired ? "expired " : ""}${formatDateTime(key.expiresAt)}` : "never"}
                    </td>
                    <td className="px-3 py-2">
                      <RevokeApiKeyButton keyId={key.id} name={key.name ?? key.start ?? key.id} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </CardFrame>
      )}
    </div>
  );
}
