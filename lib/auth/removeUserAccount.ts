import type { Db } from "@/lib/db/client";
import { isLastActiveAdminRefusal } from "@/lib/db/accounts/activeAdmins";
import { findUserById } from "@/lib/db/accounts/userQueries";
import { deleteUserWithSignIns } from "@/lib/db/accounts/userAccountWrites";

export type AccountChange = { ok: true; message: string } | { ok: false; message: string };

export type UserRemoval = {
  userId: string;
  /** The email the admin confirmed ("Yes, remove …"); it must be this user's, so a stray or stale form removes nobody. */
  confirmedEmail: string;
  /** The signed-in admin's user id; null for the local admin while sign-in is off, who has no account. */
  removedBy: string | null;
};

/**
 * Removes a user, their sessions and their ways to sign in. The runs and
 * datasets they made stay (their creator shows as unknown). Nobody removes
 * their own account, as Better Auth's admin remove-user refuses it: an admin
 * who wants to leave asks another. The last active admin cannot be removed:
 * the database refuses it inside the deletion, as it refuses demoting them
 * (changeUserRole.ts).
 */
export async function removeUserAccount(db: Db, removal: UserRemoval): Promise<AccountChange> {
  const user = await findUserById(db, removal.userId);
  if (!user) return { ok: false, message: "This user no longer exists." };
  if (removal.removedBy === user.id)
    return { ok: false, message: "You cannot remove your own account; ask another admin." };
  if (removal.confirmedEmail.trim().toLowerCase() !== user.email.toLowerCase())
    return { ok: false, message: `Tick "Yes, remove ${user.email}" first; nothing was removed.` };
  try {
    if (!(await deleteUserWithSignIns(db, user.id))) return { ok: false, message: "This user no longer exists." };
  } catch (error) {
    if (!isLastActiveAdminRefusal(error)) throw error;
    return {
      ok: false,
      message: `${user.email} is the only active admin and cannot be removed; make someone else admin first.`,
    };
  }
  return { ok: true, message: `Removed ${user.email}.` };
}
