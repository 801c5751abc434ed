import type { Db } from "@/lib/db/client";
import { readSignInFailures, recordSignInFailure } from "@/lib/db/accounts/signInThrottleQueries";

/**
 * Per-account sign-in throttle. Better Auth's own limit counts attempts per
 * client address, which a client can claim afresh with each X-Forwarded-For
 * when no trusted proxy sets it; this one counts failed password sign-ins per
 * account, whatever the address: after SIGN_IN_FAILURE_LIMIT failures within
 * SIGN_IN_WINDOW_MS of the window's first failure, password sign-in for that
 * email is refused (429) until the window ends, even with the right password.
 * A success does not reset the window: an attacker's failures must not be
 * wiped by the owner signing in. Unknown emails are counted the same way, so
 * the answer never tells whether an account exists.
 */
export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** How emails are keyed: what Better Auth stores (lower case), trimmed. Null when there is no email to key. */
export function throttleKey(email: unknown): string | null {
  if (typeof email !== "string") return null;
  const key = email.trim().toLowerCase();
  return key.length > 0 && key.length <= 320 ? key : null;
}

/** When password sign-in for this email opens again, or null when it is open now. */
export async function signInPausedUntil(db: Db, email: string, now = new Date()): Promise<Date | null> {
  const window = await readSignInFailures(db, email);
  if (!window || window.failures < SIGN_IN_FAILURE_LIMIT) return null;
  const ends = new Date(window.windowStart.getTime() + SIGN_IN_WINDOW_MS);
  return ends > now ? ends : null;
}

export async function countFailedSignIn(db: Db, email: string, now = new Date()): Promise<void> {
  await recordSignInFailure(db, email, now, new Date(now.getTime() - SIGN_IN_WINDOW_MS));
}

/** The refusal, saying when to try again (UTC, and in minutes). */
export function signInPausedMessage(until: Date, now = new Date()): string {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  const time = until.toISOString().slice(11, 16);
  return (
    `Too many failed sign-ins for this account. Password sign-in for it is paused until ${time} UTC ` +
    `(about ${minutes} minute${minutes === 1 ? "" : "s"}); try again then.`
  );
}
