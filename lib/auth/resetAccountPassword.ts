import type { Db } from "@/lib/db/client";
import { findUserById, listSignInMethods } from "@/lib/db/accounts/userQueries";
import { replacePasswordEndingSessions } from "@/lib/db/accounts/userAccountWrites";
import type { Auth } from "./createAuth";
import { passwordProblem } from "./passwordPolicy";
import type { AccountChange } from "./removeUserAccount";
import { clearSignInPause } from "./signInThrottle";

/**
 * An admin sets a user's password, under the one password policy, hashed by
 * Better Auth's own hasher (as its set-user-password does), and ends every
 * session the user has: whoever knew the old password is signed out too.
 * Only a password the user already has is reset. One who signs in through
 * single sign-on gets none: a password would outlive their removal at the
 * identity provider. A paused password sign-in for the account opens again:
 * the failures were guesses at a password that is gone, and the user is about
 * to be handed the new one.
 */
export async function resetAccountPassword(
  auth: Auth,
  db: Db,
  userId: string,
  password: string,
): Promise<AccountChange> {
  const user = await findUserById(db, userId);
  if (!user) return { ok: false, message: "This user no longer exists." };
  const methods = await listSignInMethods(db, userId);
  if (!methods.includes("credential")) return noPasswordRefusal(user.email, methods);
  const problem = passwordProblem(password);
  if (problem) return { ok: false, message: problem };
  const hash = await (await auth.$context).password.hash(password);
  const ended = await replacePasswordEndingSessions(db, userId, hash);
  // The password sign-in went between the two reads (unlinked or the user removed): nothing was written.
  if (ended === null) return noPasswordRefusal(user.email, await listSignInMethods(db, userId));
  await clearSignInPause(db, user.email);
  const sessions = ended === 0 ? "they had no open session" : `${ended} open session${ended === 1 ? "" : "s"} ended`;
  return { ok: true, message: `Password set for ${user.email}; ${sessions}. Give them the new password.` };
}

function noPasswordRefusal(email: string, methods: string[]): AccountChange {
  if (methods.length > 0)
    return {
      ok: false,
      message: `${email} signs in through single sign-on; manage it at your identity provider. No password was set.`,
    };
  return {
    ok: false,
    message: `${email} has no password to reset; remove the account and add it again with a password.`,
  };
}
