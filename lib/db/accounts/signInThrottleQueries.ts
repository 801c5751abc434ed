import type { Db } from "../client";

/**
 * Failed password sign-ins per normalised email (the SignInThrottle table):
 * one row per email, counting failures since its window started. Kept in the
 * database so the count holds across restarts and server processes.
 */
export type SignInFailureWindow = { windowStart: Date; failures: number };

export async function readSignInFailures(db: Db, email: string): Promise<SignInFailureWindow | null> {
  return db.signInThrottle.findUnique({ where: { email }, select: { windowStart: true, failures: true } });
}

/**
 * Counts one failure. A window that started before `windowStartsAfter` has
 * ended: it starts again at `now`. Each statement is atomic, so concurrent
 * failures are all counted; rows of ended windows are removed on the way.
 */
export async function recordSignInFailure(
  db: Db,
  email: string,
  now: Date,
  windowStartsAfter: Date,
): Promise<SignInFailureWindow> {
  await db.signInThrottle.deleteMany({ where: { windowStart: { lte: windowStartsAfter } } });
  return db.signInThrottle.upsert({
    where: { email },
    create: { email, windowStart: now, failures: 1 },
    update: { failures: { increment: 1 } },
    select: { windowStart: true, failures: true },
  });
}
