import type { Metadata } from "next";
import { requirePageRole } from "@/components/auth/requirePageRole";
import { AllowedDomainsForm } from "@/components/auth/AllowedDomainsForm";
import { CreateUserForm } from "@/components/auth/CreateUserForm";
import { SignInPauseControl } from "@/components/auth/SignInPauseControl";
import { SignUpToggle } from "@/components/auth/SignUpToggle";
import { UserAccountActions } from "@/components/auth/UserAccountActions";
import { UserRoleForm } from "@/components/auth/UserRoleForm";
import { Pager } from "@/components/table/Pager";
import { CardFrame } from "@/components/ui/Card";
import { formatDateTime } from "@/lib/charts/format";
import { appAuthMode } from "@/lib/auth/appAuth";
import { parseStoredRole } from "@/lib/auth/roles";
import { signInPausesOf } from "@/lib/auth/signInThrottle";
import { getDb } from "@/lib/db/client";
import { isSignUpEnabled, readAllowedEmailDomains } from "@/lib/db/accounts/settingsQueries";
import { listUsers } from "@/lib/db/accounts/userQueries";
import { paginationSchema } from "@/lib/urlState/pagination";
import { firstValues, type SearchParams } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users" };

/**
 * Admins list accounts, add them, change roles, reset passwords, clear a
 * paused password sign-in, remove them, and open or close sign-up and limit
 * it to email domains.
 */
export default async function UsersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const viewer = await requirePageRole("users.manage", "/admin/users");
  const pagination = paginationSchema.parse(firstValues(await searchParams));
  const db = getDb();
  const [users, signUpOpen, domains] = await Promise.all([
    listUsers(db, pagination),
    isSignUpEnabled(db),
    readAllowedEmailDomains(db),
  ]);
  const pauses = await signInPausesOf(
    db,
    users.items.map((user) => user.email),
  );
  const mode = appAuthMode();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Users</h1>
        <p className="text-sm text-slate-500">
          viewer: reads everything and exports · runner: also uploads datasets, starts, cancels and re-judges runs ·
          admin: also deletes and renames, and manages users and settings.
        </p>
        {mode.kind !== "on" && (
          <p className="mt-2 text-sm text-amber-800" role="status">
            Sign-in is off on this server (no ASSAY_AUTH_SECRET): these accounts take effect once it is set.
          </p>
        )}
      </div>
      <CardFrame padding="md" className="space-y-4">
        <SignUpToggle enabled={signUpOpen} domains={domains} />
        <AllowedDomainsForm domains={domains} />
      </CardFrame>
      <CardFrame padding="md">
        <CreateUserForm />
      </CardFrame>
      <CardFrame as="div" padding="none" className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="users-table">
          <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-3 py-2">Name</th>
              <th className="px-3 py-2">Email</th>
              <th className="px-3 py-2">Signs in with</th>
              <th className="px-3 py-2">Created</th>
              <th className="px-3 py-2">Role</th>
              <th className="px-3 py-2">Account</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.items.map((user) => (
              <tr key={user.id}>
                <td className="px-3 py-2">
                  {user.name}
                  {user.banned && <span className="ml-2 text-xs text-red-700">(banned)</span>}
                </td>
                <td className="px-3 py-2">{user.email}</td>
                <td className="px-3 py-2 text-slate-600">
                  {user.signInMethods.map((method) => (method === "credential" ? "password" : method)).join(", ") ||
                    "—"}
                </td>
                <td className="px-3 py-2 text-slate-600">{formatDateTime(user.createdAt)}</td>
                <td className="px-3 py-2">
                  <UserRoleForm userId={user.id} email={user.email} role={parseStoredRole(user.role)} />
                </td>
                <td className="w-80 px-3 py-2 align-top">
                  <SignInPauseControl
                    userId={user.id}
                    email={user.email}
                    pausedUntil={pauses.get(user.email)?.toISOString() ?? null}
                  />
                  <UserAccountActions
                    userId={user.id}
                    email={user.email}
                    hasPassword={user.signInMethods.includes("credential")}
                    isYou={!viewer.local && viewer.id === user.id}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {users.total === 0 && (
          <p className="px-3 py-4 text-sm text-slate-500">
            No accounts yet. Add the first admin above, or with npm run user:create -- --admin you@example.com.
          </p>
        )}
      </CardFrame>
      <Pager
        pathname="/admin/users"
        params={{}}
        page={users.page}
        pageCount={users.pageCount}
        pageSize={users.pageSize}
        total={users.total}
      />
    </div>
  );
}
