import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { admin, genericOAuth } from "better-auth/plugins";
import { adminAc, defaultAc, userAc } from "better-auth/plugins/admin/access";
import type { Db } from "@/lib/db/client";
import { authAdapterProvider } from "@/lib/db/accounts/authAdapterProvider";
import { API_KEY_HTTP_PATHS, apiKeyPluginOptions } from "./apiKeyPolicy";
import { afterAuthEndpoint, beforeAuthEndpoint, signUpRefusal } from "./authHooks";
import { withLastAdminRefusals } from "./lastAdmin";
import type { OidcConfig } from "./oidcConfig";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./passwordPolicy";
import { DEFAULT_ROLE } from "./roles";
import { requestOrigins } from "./requestOrigins";

export type CreateAuthOptions = {
  db: Db;
  secret: string;
  /** The public URL of the app (ASSAY_BASE_URL); without it Better Auth derives it from each request. */
  baseURL?: string;
  /** Origins besides baseURL allowed to post to /api/auth (a proxy's public origin). */
  trustedOrigins?: string[];
  oidc?: OidcConfig | null;
  /**
   * Better Auth's rate limits on its HTTP endpoints (sign-in and sign-up: 3
   * per 10 s per client address; others 100 per 10 s), kept in memory. On by
   * default, not only in production; tests that sign in many times turn it off.
   */
  rateLimit?: boolean;
  /** Proxies (CIDRs) whose X-Forwarded-For entries are skipped to find the client address the rate limit counts. */
  trustedProxies?: string[];
  /** Sign-in cookies for HTTPS only (lib/auth/secureCookies.ts); Better Auth's default when not given. */
  secureCookies?: boolean;
  /**
   * How passwords are hashed and checked: Better Auth's scrypt (N = 16384, about 0.2 s of CPU a hash) when not
   * given, which is what the app, the CLI and the browser tests use. The store's and the sign-in rules' tests
   * pass a cheaper one (tests/auth/testPasswordHasher.ts): they hash hundreds of passwords, and what they check
   * is who may sign in, not the hash.
   */
  passwordHasher?: PasswordHasher;
};

export type PasswordHasher = {
  hash: (password: string) => Promise<string>;
  verify: (data: { hash: string; password: string }) => Promise<boolean>;
};

export { SIGN_UP_CLOSED_MESSAGE } from "./authHooks";

/**
 * The secret of an instance that only creates accounts and hashes passwords
 * (the CLI; the users page while sign-in is off): neither depends on the
 * secret, and such an instance never signs a session.
 */
export const ACCOUNTS_ONLY_SECRET = "assay-user-create-offline-secret-000";

/**
 * The admin plugin's admin permissions without impersonation: an impersonated
 * session would act as another user with nothing in Assay's UI saying so, and
 * every run or label it made would be credited to that user.
 */
const assayAdminAc = defaultAc.newRole({
  user: adminAc.statements.user.filter((permission) => !permission.startsWith("impersonate")),
  session: [...adminAc.statements.session],
});

/**
 * Better Auth, configured for Assay: email and password, an optional OpenID
 * Connect provider, the admin plugin holding the viewer/runner/admin roles,
 * and sign-up gated by a setting an admin changes at run time.
 *
 * Better Auth does the security-sensitive parts (password hashing, session
 * tokens, cookies, the OAuth flow); Assay decides who may do what
 * (lib/auth/permissions.ts).
 */
export function createAuth(options: CreateAuthOptions) {
  const { db, oidc } = options;
  return betterAuth({
    appName: "Assay",
    secret: options.secret,
    baseURL: options.baseURL,
    basePath: "/api/auth",
    // The configured origins, and (when no base URL pins one) the origin of the host each request was sent to.
    trustedOrigins: (request) => [
      ...(options.trustedOrigins ?? []),
      ...(options.baseURL ? [] : requestOrigins(request)),
    ],
    // Works with either Prisma 7 client generated into lib/db/generated: the
    // adapter only calls db.user.findFirst(...) and friends on the instance it
    // is given, whichever driver adapter (SQLite or PostgreSQL) sits under it;
    // lib/db names the provider, so this file never learns the store.
    // Through withLastAdminRefusals: a change the database refuses because it would leave no active admin
    // answers 400 with a message instead of 500.
    database: prismaAdapter(withLastAdminRefusals(db), { provider: authAdapterProvider(db) }),
    telemetry: { enabled: false },
    logger: { log: logAuthMessage },
    // API keys are created, listed and revoked through Assay's own actions and CLI (lib/auth/apiKeys.ts), which
    // check the key's role against its creator's; the plugin's HTTP endpoints for them are closed.
    disabledPaths: [...API_KEY_HTTP_PATHS],
    rateLimit: { enabled: options.rateLimit ?? true },
    // One password policy (lib/auth/passwordPolicy.ts); Better Auth applies these to sign-up and set-user-password.
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      ...(options.passwordHasher ? { password: options.passwordHasher } : {}),
    },
    advanced: {
      cookiePrefix: "assay",
      ...(options.secureCookies === undefined ? {} : { useSecureCookies: options.secureCookies }),
      ipAddress: { trustedProxies: options.trustedProxies },
      // Better Auth skips its Origin (CSRF) check whenever NODE_ENV is "test"; Assay checks it everywhere, so a
      // server started under a test runner refuses a cross-site POST exactly as production does.
      disableOriginCheck: false,
    },
    user: {
      // Every way a new account can appear (OpenID Connect first sign-in,
      // sign-up) is refused while sign-up is off or the email's domain is not
      // on the allowed list, except an admin's (the admin plugin's
      // create-user, which the CLI also uses).
      validateUserInfo: async ({ user, source }) => {
        if (source.action !== "create-user" || source.method === "admin") return;
        return (await signUpRefusal(db, user.email)) ?? undefined;
      },
    },
    databaseHooks: {
      user: {
        create: {
          // An account an admin creates (here or with the CLI) has its email
          // vouched for by that admin, so it counts as verified. Better Auth
          // links a provider identity to an existing account only when the
          // local email is verified; this is what lets such an account sign in
          // through OpenID Connect later. Self-made sign-up accounts stay
          // unverified: nobody has proven they own the address, and linking
          // them would hand the owner's provider identity an account whose
          // password a stranger may have set.
          before: async (user, context) =>
            context?.path === "/admin/create-user" ? { data: { ...user, emailVerified: true } } : undefined,
        },
      },
    },
    hooks: {
      // Sign-up gate, per-account sign-in throttle, password policy on create-user (lib/auth/authHooks.ts).
      before: beforeAuthEndpoint(db),
      after: afterAuthEndpoint(db),
    },
    plugins: [
      admin({
        defaultRole: DEFAULT_ROLE,
        adminRoles: ["admin"],
        // Only Assay's admin manages users through the plugin's endpoints;
        // runner and viewer get none of its permissions.
        roles: { admin: assayAdminAc, runner: userAc, viewer: userAc },
      }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: oidc.providerId,
                  name: oidc.name,
                  discoveryUrl: oidc.discoveryUrl,
                  requireIdTokenVerification: true,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
      // Keys for /api/v1 (lib/auth/apiKeyPolicy.ts).
      apiKey(apiKeyPluginOptions),
      // Last: lets server actions that call auth.api set the session cookie.
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Better Auth's log lines, but for its error on every API key that fails verification: a mistyped, revoked or
 * expired key is the client's mistake, answered 401, and a client retrying one would fill the server's log.
 */
/**
 * Better Auth's messages in Assay's words where they name its own settings: its "Base URL is not set … Set the
 * baseURL option or BETTER_AUTH_URL env" would send an operator to a variable Assay never reads.
 */
function authLogMessage(message: string): string | null {
  if (message.startsWith("Failed to validate API key")) return null;
  if (message.includes("Base URL is not set"))
    return "ASSAY_BASE_URL is not set: sign-in derives the app's address from each request, which is enough on this machine; set ASSAY_BASE_URL to the public https:// address when the app is served to others (single sign-on needs it).";
  return message;
}

function logAuthMessage(level: "debug" | "info" | "success" | "warn" | "error", raw: string, ...args: unknown[]) {
  const message = authLogMessage(raw);
  if (message === null) return;
  const write = level === "error" ? console.error : level === "warn" ? console.warn : console.log;
  write(`[Better Auth] ${level.toUpperCase()}: ${message}`, ...args);
}
