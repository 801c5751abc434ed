import { sqlOf, type Db } from "../client";
import { readStoreClock } from "../store/storeClock";

/**
 * Password sign-in attempts per normalised email (the SignInThrottle table):
 * one row per email, counting since its window started the attempts that did
 * not succeed, those whose password is being checked right now included
 * (`failures`). Kept in the database so the count holds across restarts and
 * server processes; its windows start and end by the store's clock, so
 * servers whose own clocks differ agree on when a window ended.
 */
export type SignInFailureWindow = { windowStart: Date; failures: number };

/**
 * Counts one attempt before its password is checked, and returns the window
 * with it counted, and the store's time it was counted at (`now`). A window
 * that started `windowMs` or more before then has ended: it starts again at
 * `now`. The count is one upsert that increments
 * in the store (INSERT … ON CONFLICT DO UPDATE on both), so concurrent
 * attempts each get a count of their own and none is lost: 150 at once get
 * 1 to 150. Rows of ended windows are removed on the way.
 */
export async function reserveSignInAttempt(
  db: Db,
  email: string,
  windowMs: number,
): Promise<SignInFailureWindow & { now: Date }> {
  const now = await readStoreClock(sqlOf(db));
  await db.signInThrottle.deleteMany({ where: { windowStart: { lte: new Date(now.getTime() - windowMs) } } });
  const window = await db.signInThrottle.upsert({
    where: { email },
    create: { email, windowStart: now, failures: 1 },
    update: { failures: { increment: 1 } },
    select: { windowStart: true, failures: true },
  });
  return { ...window, now };
}

/**
 * Takes back one attempt counted by reserveSignInAttempt (it succeeded, or it
 * was refused before any password check), in the window it was counted in
 * only: a window that ended and started again meanwhile keeps its count.
 */
export async function releaseSignInAttempt(db: Db, email: string, windowStart: Date): Promise<void> {
  await db.signInThrottle.updateMany({
    where: { email, windowStart, failures: { gt: 0 } },
    data: { failures: { decrement: 1 } },
  });
}

/** Forgets an email's count (an admin cleared it, or its password was replaced). True when there was one. */
export async function clearSignInFailures(db: Db, email: string): Promise<boolean> {
  const { count } = await db.signInThrottle.deleteMany({ where: { email } });
  return count > 0;
}

/** Of these emails, the windows still open (started less than `windowMs` ago by the store's clock) that have `atLeast` failures or more. */
export async function listSignInWindowsAtLimit(
  db: Db,
  emails: readonly string[],
  atLeast: number,
  windowMs: number,
): Promise<{ email: string; windowStart: Date }[]> {
  if (emails.length === 0) return [];
  const windowStartsAfter = new Date((await readStoreClock(sqlOf(db))).getTime() - windowMs);
  return db.signInThrottle.findMany({
    where: { email: { in: [...emails] }, failures: { gte: atLeast }, windowStart: { gt: windowStartsAfter } },
    select: { email: true, windowStart: true },
  });
}
