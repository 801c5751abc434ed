import { NextResponse, type NextRequest } from "next/server";
import { decideServerAuthMode, type AuthMode } from "@/lib/auth/authMode";
import { contentSecurityPolicy, newCspNonce } from "@/lib/server/contentSecurityPolicy";
import { checkLoopbackAddressed } from "@/lib/auth/loopbackHost";
import { checkSameOrigin } from "@/lib/server/sameOrigin";
import { addTransportSecurity } from "@/lib/server/transportSecurity";

/**
 * Every request but built assets and the two routes that stream a request body
 * passes here, before Next.js renders a page, runs a server action or calls a
 * route handler:
 *
 * 1. A misconfigured server (sign-in required but not usable, or sign-in off
 *    without the start script's address check: lib/auth/authMode.ts) answers
 *    503 with why. While sign-in is off, a request not addressed to a loopback
 *    name is refused (lib/server/loopbackHost.ts says why).
 * 2. A request that can change something (any method but GET, HEAD, OPTIONS)
 *    from another site is refused, with the check route handlers use
 *    (lib/server/sameOrigin.ts): server actions otherwise have only Next's
 *    own origin check, and a route handler that forgets its own is covered.
 * 3. Pages get a Content-Security-Policy with a fresh nonce. The policy also
 *    goes on the request, where Next.js finds the nonce while it renders and
 *    puts it on its own scripts. The headers that need no nonce (nosniff,
 *    referrer policy, frame-ancestors for every path) are in next.config.mjs.
 * 4. Behind an https ASSAY_BASE_URL, responses ask browsers to use HTTPS only.
 */
export function proxy(request: NextRequest): NextResponse {
  const mode = authMode();
  // Nothing is served, the sign-in page included, until whoever runs the server fixes what the message says.
  if (mode.kind === "misconfigured") return refusal(request, mode.message, 503);
  if (mode.kind === "off") {
    const host = checkLoopbackAddressed(request.headers);
    if (!host.ok) return refusal(request, host.message);
  }
  if (!SAFE_METHODS.has(request.method)) {
    const origin = checkSameOrigin(request);
    if (!origin.ok) return refusal(request, origin.message);
  }

  let response: NextResponse;
  if (isPageRequest(request)) {
    const policy = contentSecurityPolicy(newCspNonce(), { development: process.env.NODE_ENV === "development" });
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set("content-security-policy", policy);
    response = NextResponse.next({ request: { headers: requestHeaders } });
    response.headers.set("content-security-policy", policy);
  } else {
    response = NextResponse.next();
  }
  return addTransportSecurity(response);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// Decided once: the environment does not change while the server runs (as lib/auth/appAuth.ts).
let decidedMode: AuthMode | undefined;
function authMode(): AuthMode {
  decidedMode ??= decideServerAuthMode(process.env);
  return decidedMode;
}

/** Pages, not route handlers (JSON, NDJSON, downloads) nor the icon; prefetches need no policy of their own. */
function isPageRequest(request: NextRequest): boolean {
  if (request.headers.has("next-router-prefetch") || request.headers.get("purpose") === "prefetch") return false;
  return !/^\/(api\/|_next\/image|favicon\.ico|icon\.svg)/.test(request.nextUrl.pathname);
}

/**
 * 403 with the reason: a small page for a browser that asked for one, `{ "error": … }` for everything
 * else (route handlers, server actions, scripts), as lib/auth/guard.ts refusalResponse answers.
 */
function refusal(request: NextRequest, message: string, status: 403 | 503 = 403): NextResponse {
  const wantsPage = (request.headers.get("accept") ?? "").includes("text/html") && !request.headers.has("next-action");
  if (!wantsPage) return NextResponse.json({ error: message }, { status, headers: { "cache-control": "no-store" } });
  return new NextResponse(refusalPage(message), {
    status,
    headers: {
      "cache-control": "no-store",
      "content-type": "text/html; charset=utf-8",
      // The page is text only: nothing on it may run or load, whatever the message quotes.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

function refusalPage(message: string): string {
  const escaped = message.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Request refused · Assay</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1 style="font-size: 1.25rem">Request refused</h1>
<p>${escaped}</p>
</body>
</html>
`;
}

export const config = {
  // Skipped: built assets (the same files for everyone, no data), and the upload and label-import routes:
  // Next buffers the whole body of any request the proxy sees before the route reads it (and cuts it at
  // 10 MB), which would end streaming uploads. Those routes run the same checks themselves: sameOrigin.ts
  // first thing, and the Host check in lib/auth/guard.ts checkAccess, which every route handler calls.
  // /api/v1 likewise (its dataset upload streams), and every one of its routes goes through
  // lib/api/defineApiRoute.ts, which makes the same checks.
  matcher: ["/((?!_next/static|api/datasets/upload|api/datasets/[^/]+/labels|api/v1/).*)"],
};
