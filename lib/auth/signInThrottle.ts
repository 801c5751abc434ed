import type { Db } from "@/lib/db/client";
import {
  clearSignInFailures,
  listSignInWindowsAtLimit,
  releaseSignInAttempt,
  reserveSignInAttempt as countSignInAttempt,
} from "@/lib/db/accounts/signInThrottleQueries";
import { findUserById } from "@/lib/db/accounts/userQueries";

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
 *
 * Each attempt is counted before its password is checked (a reservation), not
 * after: read-then-count let a burst of 150 parallel guesses through 43
 * password checks, all reading the count before any was written. An attempt
 * whose reservation is over the limit is refused without a check; the
 * reservation of an attempt that succeeds is taken back, so only failures
 * (and checks still in flight) count.
 */
export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** An attempt counted before its password check: taken back (releaseSignInReservation) if it succeeds. */
export type SignInReservation = { email: string; windowStart: Date };

/** How emails are keyed: what Better Auth stores (lower case), trimmed. Null when there is no email to key. */
export function throttleKey(email: unknown): string | null {
  if (typeof email !== "string") return null;
  const key = email.trim().toLowerCase();
  return key.length > 0 && key.length <= 320 ? key : null;
}

/**
 * Counts a password sign-in attempt before its check. Refused (with when sign-in opens again, and the time it
 * was refused at, both by the store's clock) when the count, this attempt included, is over the limit; the
 * refused attempt is not left counted, as it checks no password.
 */
export async function reserveSignInAttempt(
  db: Db,
  email: string,
): Promise<{ ok: true; reservation: SignInReservation } | { ok: false; until: Date; now: Date }> {
  const window = await countSignInAttempt(db, email, SIGN_IN_WINDOW_MS);
  if (window.failures <= SIGN_IN_FAILURE_LIMIT)
    return { ok: true, reservation: { email, windowStart: window.windowStart } };
  await releaseSignInAttempt(db, email, window.windowStart);
  return { ok: false, until: windowEnd(window.windowStart), now: window.now };
}

/** The attempt succeeded: it is no failure. */
export async function releaseSignInReservation(db: Db, reservation: SignInReservation): Promise<void> {
  await releaseSignInAttempt(db, reservation.email, reservation.windowStart);
}

/** Opens password sign-in for an email again (an admin cleared it, or its password was replaced). */
export async function clearSignInPause(db: Db, email: string): Promise<boolean> {
  const key = throttleKey(email);
  return key ? clearSignInFailures(db, key) : false;
}

/** Of these emails, those whose password sign-in is paused now, with when it opens again (keyed as given). */
export async function signInPausesOf(db: Db, emails: readonly string[]): Promise<Map<string, Date>> {
  const byKey = new Map(
    emails.flatMap((email) => {
      const key = throttleKey(email);
      return key ? [[key, email] as const] : [];
    }),
  );
  const windows = await listSignInWindowsAtLimit(db, [...byKey.keys()], SIGN_IN_FAILURE_LIMIT, SIGN_IN_WINDOW_MS);
  return new Map(windows.map((window) => [byKey.get(window.email) ?? window.email, windowEnd(window.windowStart)]));
}

function windowEnd(windowStart: Date): Date {
  return new Date(windowStart.getTime() + SIGN_IN_WINDOW_MS);
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

/**
 * An admin opens a paused account's password sign-in: anyone who knows an email can pause it for the rest of
 * the window, so the owner needs someone who can lift it before then.
 */
export async function clearAccountSignInPause(db: Db, userId: string): Promise<{ ok: boolean; message: string }> {
  const user = await findUserById(db, userId);
  if (!user) return { ok: false, message: "This user no longer exists." };
  return (await clearSignInPause(db, user.email))
    ? { ok: true, message: `Password sign-in for ${user.email} is open again; earlier failed sign-ins are forgotten.` }
    : { ok: true, message: `Password sign-in for ${user.email} was not paused.` };
}
