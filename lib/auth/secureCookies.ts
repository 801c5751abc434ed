import { isLoopback } from "@/lib/server/listenHost";

/**
 * Whether sign-in cookies carry `Secure` (and the `__Secure-` prefix), so a
 * browser sends them over HTTPS only: yes for an https ASSAY_BASE_URL, no for
 * an http one (a plain-HTTP server on a trusted network), and without a base
 * URL yes in production. That is Better Auth's own default, decided here so
 * that the sign-in page can tell when a browser is going to refuse the cookie.
 */
export function usesSecureCookies(baseURL: string | undefined, nodeEnv: string | undefined): boolean {
  if (baseURL) return baseURL.startsWith("https://");
  return nodeEnv === "production";
}

/**
 * Whether a browser on this page will drop a Secure sign-in cookie: it keeps
 * one set over plain HTTP only for a loopback host (Chromium's and Firefox's
 * rule), so sign-in on http://10.0.0.5:3000 would succeed and then forget
 * the session. `forwardedProto` is what a TLS-terminating proxy says it spoke.
 */
export function secureCookieRefused(
  secure: boolean,
  request: { host: string | null; forwardedProto: string | null },
): boolean {
  if (!secure) return false;
  const protocol = (request.forwardedProto ?? "http").split(",")[0].trim().toLowerCase();
  if (protocol === "https") return false;
  return !isLoopback(hostWithoutPort(request.host ?? ""));
}

function hostWithoutPort(host: string): string {
  const trimmed = host.trim();
  if (trimmed.startsWith("[")) return trimmed.slice(0, trimmed.indexOf("]") + 1);
  return trimmed.replace(/:\d+$/, "");
}
