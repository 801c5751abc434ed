import { randomUUID } from "node:crypto";
import type { Db } from "./client";

/**
 * An admin's changes to a user's sign-in, each in one transaction. Better
 * Auth's own deleteUser (behind its remove-user) deletes sessions and sign-in
 * accounts first and the user last, as separate writes; when the database then refuses the user's
 * deletion (the last active admin, lib/db/activeAdmins.ts), that admin would
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
 * Stores a new password hash for the user's email/password sign-in (adding
 * one for a user who signed in only through single sign-on, keyed as Better
 * Auth keys it) and ends every session they have. Returns how many ended.
 */
export async function replacePasswordEndingSessions(db: Db, userId: string, passwordHash: string): Promise<number> {
  const credential = await db.account.findFirst({
    where: { userId, providerId: "credential" },
    select: { id: true },
  });
  const [, ended] = await db.$transaction([
    credential
      ? db.account.update({ where: { id: credential.id }, data: { password: passwordHash } })
      : db.account.create({
          data: { id: randomUUID(), userId, accountId: userId, providerId: "credential", password: passwordHash },
        }),
    db.session.deleteMany({ where: { userId } }),
  ]);
  return ended.count;
}
