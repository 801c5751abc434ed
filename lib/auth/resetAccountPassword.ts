import type { Db } from "@/lib/db/client";
import { findUserById } from "@/lib/db/userQueries";
import { replacePasswordEndingSessions } from "@/lib/db/userAccountWrites";
import type { Auth } from "./createAuth";
import { passwordProblem } from "./passwordPolicy";
import type { AccountChange } from "./removeUserAccount";

/**
 * An admin sets a user's password, under the one password policy, hashed by
 * Better Auth's own hasher (as its set-user-password does), and ends every
 * session the user has: whoever knew the old password is signed out too.
 */
export async function resetAccountPassword(
  auth: Auth,
  db: Db,
  userId: string,
  password: string,
): Promise<AccountChange> {
  const problem = passwordProblem(password);
  if (problem) return { ok: false, message: problem };
  const user = await findUserById(db, userId);
  if (!user) return { ok: false, message: "This user no longer exists." };
  const hash = await (await auth.$context).password.hash(password);
  const ended = await replacePasswordEndingSessions(db, userId, hash);
  const sessions = ended === 0 ? "they had no open session" : `${ended} open session${ended === 1 ? "" : "s"} ended`;
  return { ok: true, message: `Password set for ${user.email}; ${sessions}. Give them the new password.` };
}
