import type { Db } from "@/lib/db/client";
import { isLastActiveAdminRefusal } from "@/lib/db/activeAdmins";
import { findUserById } from "@/lib/db/userQueries";
import { deleteUserWithSignIns } from "@/lib/db/userAccountWrites";

export type AccountChange = { ok: true; message: string } | { ok: false; message: string };

/**
 * Removes a user, their sessions and their ways to sign in. The runs and
 * datasets they made stay (their creator shows as unknown). The last active
 * admin cannot be removed, yourself included: the database refuses it inside
 * the deletion, as it refuses demoting them (changeUserRole.ts).
 */
export async function removeUserAccount(db: Db, userId: string): Promise<AccountChange> {
  const user = await findUserById(db, userId);
  if (!user) return { ok: false, message: "This user no longer exists." };
  try {
    if (!(await deleteUserWithSignIns(db, userId))) return { ok: false, message: "This user no longer exists." };
  } catch (error) {
    if (!isLastActiveAdminRefusal(error)) throw error;
    return {
      ok: false,
      message: `${user.email} is the only active admin and cannot be removed; make someone else admin first.`,
    };
  }
  return { ok: true, message: `Removed ${user.email}.` };
}
