import { OidcConfigError, readOidcConfig } from "@/lib/auth/oidcConfig";

/**
 * Whether the OpenID Connect settings let the server start: a half-set
 * provider, an http issuer beyond loopback or a missing ASSAY_BASE_URL is
 * refused at start with the variable to fix, not at the first sign-in. Only
 * when sign-in is on (ASSAY_AUTH_SECRET set): without it nobody signs in.
 */
export function checkOidcAtStart(
  env: Record<string, string | undefined>,
): { ok: true } | { ok: false; message: string } {
  if (!env.ASSAY_AUTH_SECRET?.trim()) return { ok: true };
  try {
    readOidcConfig(env);
    return { ok: true };
  } catch (error) {
    if (error instanceof OidcConfigError) return { ok: false, message: error.message };
    throw error;
  }
}
