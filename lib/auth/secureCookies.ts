/**
 * Whether sign-in cookies carry `Secure` (and the `__Secure-` prefix), so a
 * browser sends them over HTTPS only: yes for an https ASSAY_BASE_URL, no for
 * an http one (a plain-HTTP server on a trusted network), and without a base
 * URL yes in production. That is Better Auth's own default, decided here so
 * that the sign-in page can tell when a browser is going to refuse the cookie
 * (components/auth/InsecureCookieNotice.tsx).
 */
export function usesSecureCookies(baseURL: string | undefined, nodeEnv: string | undefined): boolean {
  if (baseURL) return baseURL.startsWith("https://");
  return nodeEnv === "production";
}
