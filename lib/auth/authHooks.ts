import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Db } from "@/lib/db/client";
import { isSignUpEnabled, readAllowedEmailDomains } from "@/lib/db/accounts/settingsQueries";
import { domainRefusalMessage, isEmailDomainAllowed } from "./emailDomains";
import { passwordProblem } from "./passwordPolicy";
import { countFailedSignIn, signInPausedMessage, signInPausedUntil, throttleKey } from "./signInThrottle";

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
      const key = throttleKey(body.email);
      const now = new Date();
      const until = key ? await signInPausedUntil(db, key, now) : null;
      if (until)
        throw new APIError(
          "TOO_MANY_REQUESTS",
          { message: signInPausedMessage(until, now), code: "ACCOUNT_SIGN_IN_PAUSED" },
          { "Retry-After": String(Math.ceil((until.getTime() - now.getTime()) / 1000)) },
        );
    }
    // The admin plugin checks only a password's maximum length here; Assay's policy applies to it as everywhere.
    if (ctx.path === "/admin/create-user" && body.password !== undefined) {
      const problem = passwordProblem(body.password);
      if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "PASSWORD_POLICY" });
    }
  });
}

/** Runs after every Better Auth endpoint: counts failed password sign-ins per account. */
export function afterAuthEndpoint(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    if (ctx.path !== "/sign-in/email") return;
    const returned = ctx.context.returned;
    if (!(returned instanceof APIError) || returned.statusCode !== 401) return;
    const key = throttleKey((ctx.body as { email?: unknown } | undefined)?.email);
    if (key) await countFailedSignIn(db, key);
  });
}
