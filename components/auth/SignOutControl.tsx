import { signOut } from "@/app/actions/signOut";
import { currentUser } from "@/lib/auth/requireRole";

/**
 * Who is signed in, with their role, and a sign-out button: for the header.
 * Renders nothing while sign-in is off (everyone is the local admin) or
 * signed out.
 */
export async function SignOutControl() {
  const user = await currentUser();
  if (!user || user.local) return null;
  return (
    <form action={signOut} className="flex items-center gap-2 text-sm" data-testid="signout-control">
      <span className="text-slate-600">
        {user.name || user.email} <span className="text-xs text-slate-400">({user.role})</span>
      </span>
      <button className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs hover:bg-slate-50">
        Sign out
      </button>
    </form>
  );
}
