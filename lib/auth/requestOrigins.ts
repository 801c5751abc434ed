/**
 * The origins a browser page served by this very request's host would send:
 * Better Auth's trusted origins when no ASSAY_BASE_URL pins one. Without
 * them, Better Auth (whose Origin check is on) derives the origin from the
 * URL Next hands the route handler, which need not be the host the browser
 * used (`localhost` against `127.0.0.1`), and refuses every sign-in.
 *
 * Safe against cross-site posts: a page on another site cannot choose the Host
 * a browser sends to Assay, and its Origin names its own site, so it never
 * matches. The same rule lib/server/sameOrigin.ts applies to route handlers.
 */
export function requestOrigins(request: Request | undefined): string[] {
  if (!request) return [];
  const hosts = [request.headers.get("x-forwarded-host"), request.headers.get("host")]
    .flatMap((value) => (value ? value.split(",") : []))
    .map((value) => value.trim().toLowerCase())
    .filter((value) => /^[a-z0-9.\-[\]:]+$/.test(value));
  return [...new Set(hosts)].flatMap((host) => [`http://${host}`, `https://${host}`]);
}
