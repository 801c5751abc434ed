/**
 * Where to send someone after signing in: a path on this site only. "//host",
 * "/\host" and absolute URLs would leave the site (an open redirect), so they
 * fall back to the datasets page.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/datasets"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(next)) return fallback;
  return next;
}
