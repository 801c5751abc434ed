/**
 * Cross-site request refusal for route handlers that change state. A browser
 * lets any site POST a "simple" request (text/plain, no custom headers) to
 * Assay, with the user's network position and cookies; such a request always
 * carries `Origin` and, in current browsers, `Sec-Fetch-Site`. It is accepted
 * only when it comes from Assay's own origin (the Host the request was sent
 * to, or the host a proxy forwarded it for) or from an origin listed in
 * ASSAY_ALLOWED_ORIGINS. A request with neither header is not from a browser
 * page (curl, scripts), so no other site can have sent it. Nor can a request
 * that carries an API key (`Authorization: Bearer …`) and no cookie: a page
 * on another site cannot add that header without a CORS preflight, which
 * Assay never grants, and without a cookie it acts with nothing the browser
 * holds.
 */
export type OriginCheck = { ok: true } | { ok: false; message: string };

export function checkSameOrigin(
  request: Request,
  allowedHosts: readonly string[] = allowedOriginHosts(process.env.ASSAY_ALLOWED_ORIGINS),
): OriginCheck {
  if (/^Bearer\s/i.test(request.headers.get("authorization") ?? "") && !request.headers.has("cookie"))
    return { ok: true };
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site")?.toLowerCase() ?? null;
  const originHost = origin === null ? null : hostOfOrigin(origin);
  const ownHosts = [request.headers.get("x-forwarded-host"), request.headers.get("host")]
    .flatMap((value) => (value ? value.split(",") : []))
    .map((value) => value.trim().toLowerCase())
    .filter(Boolean);

  // The browser's own verdict on the page that sent it: another site (or a sibling subdomain) is refused
  // unless its origin is on the allow-list.
  if (fetchSite === "cross-site" || fetchSite === "same-site") {
    if (originHost !== null && matchesAllowed(originHost, allowedHosts)) return { ok: true };
    return refuse(`the browser marked it ${fetchSite}${origin === null ? "" : ` (from ${shown(origin)})`}`);
  }
  if (origin !== null) {
    if (originHost === null) return refuse(`its Origin "${shown(origin)}" is not a web origin`);
    if (ownHosts.includes(originHost) || matchesAllowed(originHost, allowedHosts)) return { ok: true };
    return refuse(`it comes from ${shown(origin)}, not from this server`);
  }
  return { ok: true };
}

/**
 * ASSAY_ALLOWED_ORIGINS: comma-separated origins or hosts (`https://assay.example.com`,
 * `assay.example.com:8443`, `*.example.com`), as host[:port] patterns in lower case.
 * next.config.mjs reads the same variable for server actions' allowedOrigins.
 */
export function allowedOriginHosts(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((entry) =>
      entry
        .trim()
        .toLowerCase()
        .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
        .replace(/\/.*$/, ""),
    )
    .filter(Boolean);
}

function hostOfOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : null;
  } catch {
    return null; // "null" (sandboxed frames, file:, data:) and anything malformed
  }
}

/** Exact host[:port], or `*.domain` for any subdomain of domain (as Next's allowedOrigins reads it). */
function matchesAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) =>
    pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern,
  );
}

function refuse(reason: string): OriginCheck {
  return {
    ok: false,
    message: `Cross-site request refused: ${reason}. Assay accepts changes only from its own pages; behind a proxy with another host name, list that origin in ASSAY_ALLOWED_ORIGINS.`,
  };
}

function shown(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text.replace(/[\p{Cc}]/gu, "?");
}
