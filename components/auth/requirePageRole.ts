import { redirect } from "next/navigation";
import type { AuthUser } from "@/lib/auth/guard";
import type { Action } from "@/lib/auth/permissions";
import { checkRole } from "@/lib/auth/requireRole";

/**
 * A page's guard: the user allowed to see it, or a redirect to the sign-in
 * page (signed out: sign in and come back; signed in with too weak a role: the
 * sign-in page says so and offers to switch accounts).
 */
export async function requirePageRole(action: Action, path: string): Promise<AuthUser> {
  const access = await checkRole(action);
  if (access.ok) return access.user;
  const next = encodeURIComponent(path);
  if (access.status === 403) redirect(`/signin?denied=${encodeURIComponent(action)}&next=${next}`);
  redirect(`/signin?next=${next}`);
}
