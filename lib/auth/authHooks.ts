import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Db } from "@/lib/db/client";
import { isSignUpEnabled, readAllowedEmailDomains } from "@/lib/db/accounts/settingsQueries";
import { findUserById } from "@/lib/db/accounts/userQueries";
import { domainRefusalMessage, isEmailDomainAllowed } from "./emailDomains";
import { passwordProblem } from "./passwordPolicy";
import {
  clearSignInPause,
  releaseSignInReservation,
  reserveSignInAttempt,
  signInPausedMessage,
  throttleKey,
  type SignInReservation,
} from "./signInThrottle";

/** Said when sign-up is off, whatever the email: it must not tell whether an account exists. */
export const SIGN_UP_CLOSED_MESSAGE = "Sign-up is turned off on this server. Ask an admin for an account.";

/**
 * Why a new account for this email may not be made by sign-up (email or a
 * first OpenID Connect sign-in), or null when it may: sign-up must be on, and
 * the email's domain on the allowed list when there is one.
 */
export async function signUpRefusal(
  db: Db,
  email: unknown,
): Promise<{ error: "signup_disabled" | "signup_domain_not_allowed"; errorDescription: string } | null> {
  if (!(await isSignUpEnabled(db))) return { error: "signup_disabled", errorDescription: SIGN_UP_CLOSED_MESSAGE };
  const domains = await readAllowedEmailDomains(db);
  if (typeof email === "string" && isEmailDomainAllowed(email, domains)) return null;
  return { error: "signup_domain_not_allowed", errorDescription: domainRefusalMessage(domains) };
}

/**
 * Sign-in attempts counted by the before hook, by the endpoint call's context: the same object reaches the
 * after hook of the same call, and a call whose after hook never runs (a crash) leaves its attempt counted.
 */
const reservations = new WeakMap<object, SignInReservation>();

/** Runs before every Better Auth endpoint; acts on the few that Assay adds rules to. */
export function beforeAuthEndpoint(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    if (ctx.path === "/sign-up/email") {
      // Before Better Auth looks the email up, so a taken and a free address get the same answer.
      const refusal = await signUpRefusal(db, body.email);
      if (refusal)
        throw new APIError("FORBIDDEN", { message: refusal.errorDescription, code: refusal.error.toUpperCase() });
    }
    if (ctx.path === "/sign-in/email") {
      // Counted before Better Auth checks the password (signInThrottle.ts says why), kept for the after hook.
      // The window is the store's (its clock), so the wait is measured from the store's time of the refusal.
      const key = throttleKey(body.email);
      const attempt = key ? await reserveSignInAttempt(db, key) : null;
      if (attempt && !attempt.ok)
        throw new APIError(
          "TOO_MANY_REQUESTS",
          { message: signInPausedMessage(attempt.until, attempt.now), code: "ACCOUNT_SIGN_IN_PAUSED" },
          { "Retry-After": String(Math.ceil((attempt.until.getTime() - attempt.now.getTime()) / 1000)) },
        );
      if (attempt) reservations.set(ctx.context, attempt.reservation);
    }
    // The admin plugin checks only a password's maximum length here; Assay's policy applies to it as everywhere.
    if (ctx.path === "/admin/create-user" && body.password !== undefined) {
      const problem = passwordProblem(body.password);
      if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "PASSWORD_POLICY" });
    }
  });
}

/**
 * Runs after every Better Auth endpoint: a password sign-in that succeeded takes its counted attempt back
 * (a failure, or anything but a success, keeps it); a password replaced through Better Auth (the user's own
 * change-password, an admin's set-user-password) opens that email's paused sign-in.
 */
export function afterAuthEndpoint(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    const returned = ctx.context.returned;
    const succeeded = returned !== undefined && returned !== null && !(returned instanceof APIError);
    if (ctx.path === "/sign-in/email") {
      const reservation = reservations.get(ctx.context);
      reservations.delete(ctx.context);
      if (reservation && succeeded && isSignedInAnswer(returned)) await releaseSignInReservation(db, reservation);
    }
    if (!succeeded) return;
    if (ctx.path === "/change-password") {
      const email = (returned as { user?: { email?: unknown } }).user?.email;
      if (typeof email === "string") await clearSignInPause(db, email);
    }
    if (ctx.path === "/admin/set-user-password") {
      const userId = (ctx.body as { userId?: unknown } | undefined)?.userId;
      const user = typeof userId === "string" ? await findUserById(db, userId) : null;
      if (user) await clearSignInPause(db, user.email);
    }
  });
}

/** Sign-in's answer once a session was made (its token), and nothing else: only that takes an attempt back. */
function isSignedInAnswer(returned: unknown): boolean {
  return (
    typeof returned === "object" && returned !== null && typeof (returned as { token?: unknown }).token === "string"
  );
}
