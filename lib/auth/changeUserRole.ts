import type { Db } from "@/lib/db/client";
import { countUsersWithRole, findUserById, setUserRole } from "@/lib/db/userQueries";
import { parseStoredRole, type Role } from "./roles";

/**
 * Changes a user's role, refusing to demote the last admin: with none left,
 * only the CLI could manage users again.
 */
export async function changeUserRole(
  db: Db,
  userId: string,
  role: Role,
): Promise<{ ok: true; message: null } | { ok: false; message: string }> {
  const user = await findUserById(db, userId);
  if (!user) return { ok: false, message: "This user no longer exists." };
  const current = parseStoredRole(user.role);
  if (current === "admin" && role !== "admin" && (await countUsersWithRole(db, "admin")) <= 1)
    return { ok: false, message: `${user.email} is the only admin; make someone else admin first.` };
  await setUserRole(db, userId, role);
  return { ok: true, message: null };
}
