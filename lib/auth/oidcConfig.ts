import { z } from "zod";
import { isLoopbackHost, type Env } from "./authMode";

/**
 * A generic OpenID Connect provider, configured from the environment. All three
 * of ASSAY_OIDC_ISSUER, ASSAY_OIDC_CLIENT_ID and ASSAY_OIDC_CLIENT_SECRET must
 * be set to turn it on; ASSAY_OIDC_NAME labels the sign-in button. The issuer
 * must be https (an http issuer lets anyone on the path read the client secret
 * and forge the discovery document), except on loopback, where nothing crosses
 * a network; and ASSAY_BASE_URL must be set, because the redirect URI the
 * provider sends the user back to must not be derived from a request's Host
 * header.
 */
export type OidcConfig = {
  providerId: "oidc";
  name: string;
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
};

export const OIDC_PROVIDER_ID = "oidc";

const oidcEnvSchema = z.object({
  ASSAY_OIDC_ISSUER: z.url({ protocol: /^https?$/ }),
  ASSAY_OIDC_CLIENT_ID: z.string().trim().min(1),
  ASSAY_OIDC_CLIENT_SECRET: z.string().trim().min(1),
  ASSAY_OIDC_NAME: z.string().trim().min(1).max(60).optional(),
});

export class OidcConfigError extends Error {}

/** The provider, or null when none is configured. Throws OidcConfigError (naming the variable) when it is half set. */
export function readOidcConfig(env: Env = process.env): OidcConfig | null {
  const keys = ["ASSAY_OIDC_ISSUER", "ASSAY_OIDC_CLIENT_ID", "ASSAY_OIDC_CLIENT_SECRET"] as const;
  const set = keys.filter((key) => env[key]?.trim());
  if (set.length === 0) return null;
  const parsed = oidcEnvSchema.safeParse({
    ASSAY_OIDC_ISSUER: env.ASSAY_OIDC_ISSUER?.trim(),
    ASSAY_OIDC_CLIENT_ID: env.ASSAY_OIDC_CLIENT_ID,
    ASSAY_OIDC_CLIENT_SECRET: env.ASSAY_OIDC_CLIENT_SECRET,
    ASSAY_OIDC_NAME: env.ASSAY_OIDC_NAME || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? "ASSAY_OIDC_*");
    throw new OidcConfigError(
      `${key} ${env[key]?.trim() ? "is invalid" : "is missing"}: an OpenID Connect provider needs ${keys.join(", ")}.`,
    );
  }
  const issuer = parsed.data.ASSAY_OIDC_ISSUER.replace(/\/+$/, "");
  const issuerUrl = new URL(issuer);
  if (issuerUrl.protocol !== "https:" && !isLoopbackHost(issuerUrl.hostname))
    throw new OidcConfigError(
      `ASSAY_OIDC_ISSUER is ${issuerUrl.protocol}//${issuerUrl.host}: an OpenID Connect issuer must use https:// (plain http:// is accepted only on this machine: localhost, 127.0.0.1, ::1).`,
    );
  if (!z.url({ protocol: /^https?$/ }).safeParse(env.ASSAY_BASE_URL?.trim()).success)
    throw new OidcConfigError(
      `ASSAY_BASE_URL ${env.ASSAY_BASE_URL?.trim() ? "is invalid" : "is missing"}: single sign-on needs the public URL people open (e.g. https://assay.example.com), from which the redirect URI ASSAY_BASE_URL/api/auth/callback/oidc is made.`,
    );
  return {
    providerId: OIDC_PROVIDER_ID,
    name: parsed.data.ASSAY_OIDC_NAME ?? "single sign-on",
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId: parsed.data.ASSAY_OIDC_CLIENT_ID,
    clientSecret: parsed.data.ASSAY_OIDC_CLIENT_SECRET,
  };
}
