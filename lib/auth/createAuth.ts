import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { admin, genericOAuth } from "better-auth/plugins";
import { adminAc, userAc } from "better-auth/plugins/admin/access";
import type { Db } from "@/lib/db/client";
import { isSignUpEnabled } from "@/lib/db/settingsQueries";
import type { OidcConfig } from "./oidcConfig";
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
};

/** Said when sign-up is off, whatever the email: it must not tell whether an account exists. */
export const SIGN_UP_CLOSED_MESSAGE = "Sign-up is turned off on this server. Ask an admin for an account.";

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
    // Works with the Prisma 7 client generated into lib/db/generated: the
    // adapter only calls db.user.findFirst(...) and friends on the instance it
    // is given, and the better-sqlite3 driver adapter sits under that client.
    database: prismaAdapter(db, { provider: "sqlite" }),
    telemetry: { enabled: false },
    rateLimit: { enabled: options.rateLimit ?? true },
    emailAndPassword: { enabled: true, minPasswordLength: 12, maxPasswordLength: 256 },
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
      // sign-up) is refused while sign-up is off, except an admin's (the
      // admin plugin's create-user, which the CLI also uses).
      validateUserInfo: async ({ source }) => {
        if (source.action !== "create-user" || source.method === "admin") return;
        if (await isSignUpEnabled(db)) return;
        return { error: "signup_disabled", errorDescription: SIGN_UP_CLOSED_MESSAGE };
      },
    },
    hooks: {
      // Refuse email sign-up before Better Auth looks the email up, so the
      // answer is the same for a taken and a free address.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-up/email") return;
        if (await isSignUpEnabled(db)) return;
        throw new APIError("FORBIDDEN", { message: SIGN_UP_CLOSED_MESSAGE, code: "SIGNUP_DISABLED" });
      }),
    },
    plugins: [
      admin({
        defaultRole: DEFAULT_ROLE,
        adminRoles: ["admin"],
        // Only Assay's admin manages users through the plugin's endpoints;
        // runner and viewer get none of its permissions.
        roles: { admin: adminAc, runner: userAc, viewer: userAc },
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
      // Last: lets server actions that call auth.api set the session cookie.
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
