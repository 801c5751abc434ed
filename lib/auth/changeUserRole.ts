import type { Db } from "@/lib/db/client";
import { isLastActiveAdminRefusal } from "@/lib/db/accounts/activeAdmins";
import { findUserById, setUserRole } from "@/lib/db/accounts/userQueries";
import type { Role } from "./roles";

/**
 * Changes a user's role, refusing to demote the last active admin: with none
 * left, only the CLI could manage users again. The database decides, inside
 * the update itself (lib/db/accounts/activeAdmins.ts), so two admins demoting each
 * other at the same moment cannot both succeed.
 */
export async function changeUserRole(
  db: Db,
  userId: string,
  role: Role,
): Promise<{ ok: true; message: null } | { ok: false; message: string }> {
  const user = await findUserById(db, userId);
  if (!user) return { ok: false, message: "This user no longer exists." };
  try {
    await setUserRole(db, userId, role);
  } catch (error) {
    if (!isLastActiveAdminRefusal(error)) throw error;
    return { ok: false, message: `${user.email} is the only active admin; make someone else admin first.` };
  }
  return { ok: true, message: null };
}
