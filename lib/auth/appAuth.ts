import { getDb } from "@/lib/db/client";
import { decideServerAuthMode, type AuthMode } from "./authMode";
import { ACCOUNTS_ONLY_SECRET, createAuth, type Auth } from "./createAuth";
import type { AuthContext } from "./guard";
import { readOidcConfig } from "./oidcConfig";
import { usesSecureCookies } from "./secureCookies";

/**
 * The server process's auth: the mode decided once from the environment, and
 * Better Auth on the app's database, built on first use. On globalThis because
 * Next bundles this module more than once (pages, route handlers, actions).
 */
const globalForAuth = globalThis as unknown as { assayAuth?: Auth; assayAccountAuth?: Auth; assayAuthMode?: AuthMode };

export function appAuthMode(): AuthMode {
  globalForAuth.assayAuthMode ??= decideServerAuthMode(process.env);
  return globalForAuth.assayAuthMode;
}

/** Better Auth for this process. Only called when sign-in is on (the mode holds the secret). */
export function getAuth(): Auth {
  const mode = appAuthMode();
  if (mode.kind !== "on") throw new Error("sign-in is off on this server; there is no Better Auth instance");
  globalForAuth.assayAuth ??= createAuth({
    db: getDb(),
    secret: mode.secret,
    baseURL: appBaseUrl(),
    secureCookies: appUsesSecureCookies(),
    trustedOrigins: splitList(process.env.ASSAY_TRUSTED_ORIGINS),
    trustedProxies: splitList(process.env.ASSAY_TRUSTED_PROXIES),
    oidc: readOidcConfig(process.env),
  });
  return globalForAuth.assayAuth;
}

/**
 * Better Auth for an admin's account changes (create, reset a password): the
 * server's own while sign-in is on. While it is off (the local admin manages
 * accounts ahead of turning it on), one on the same database made as the CLI
 * makes it: it only hashes passwords and writes accounts, and never signs a
 * session with its placeholder secret.
 */
export function getAccountAuth(): Auth {
  if (appAuthMode().kind === "on") return getAuth();
  globalForAuth.assayAccountAuth ??= createAuth({
    db: getDb(),
    secret: ACCOUNTS_ONLY_SECRET,
    baseURL: appBaseUrl() ?? "http://127.0.0.1:3000",
  });
  return globalForAuth.assayAccountAuth;
}

/** ASSAY_BASE_URL, the app's public URL, when set. */
export function appBaseUrl(): string | undefined {
  return process.env.ASSAY_BASE_URL?.trim() || undefined;
}

/** Whether this server's sign-in cookies are for HTTPS only. */
export function appUsesSecureCookies(): boolean {
  return usesSecureCookies(appBaseUrl(), process.env.NODE_ENV);
}

export function appAuthContext(): AuthContext {
  return { mode: appAuthMode(), auth: getAuth };
}

function splitList(value: string | undefined): string[] | undefined {
  const items = (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}
