import type { Db } from "../client";

/**
 * An admin's changes to a user's sign-in, each in one transaction. Better
 * Auth's own deleteUser (behind its remove-user) deletes sessions and sign-in
 * accounts first and the user last, as separate writes; when the database then refuses the user's
 * deletion (the last active admin, lib/db/accounts/activeAdmins.ts), that admin would
 * be left without a password. Here the refusal undoes everything.
 */

/** Deletes a user with their sessions and sign-in accounts, or nothing; false when the user is already gone. */
export async function deleteUserWithSignIns(db: Db, userId: string): Promise<boolean> {
  const [, , deleted] = await db.$transaction([
    db.session.deleteMany({ where: { userId } }),
    db.account.deleteMany({ where: { userId } }),
    db.user.deleteMany({ where: { id: userId } }),
  ]);
  return deleted.count > 0;
}

/**
 * Stores a new password hash for the user's email/password sign-in and ends
 * every session they have, in one transaction. Only an existing password is
 * replaced: adding one to an account that signs in through single sign-on
 * would let that person keep signing in after the identity provider removed
 * them. Returns how many sessions ended, or null when the user has no password
 * sign-in (then nothing changed).
 */
export async function replacePasswordEndingSessions(
  db: Db,
  userId: string,
  passwordHash: string,
): Promise<number | null> {
  return db.$transaction(async (tx) => {
    const replaced = await tx.account.updateMany({
      where: { userId, providerId: "credential" },
      data: { password: passwordHash },
    });
    if (replaced.count === 0) return null;
    return (await tx.session.deleteMany({ where: { userId } })).count;
  });
}
