import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newCspNonce } from "@/lib/server/contentSecurityPolicy";

/**
 * Every page response gets a Content-Security-Policy with a fresh nonce. The
 * policy also goes on the request, where Next.js finds the nonce while it
 * renders and puts it on its own scripts (pages are rendered per request, so
 * every page gets one). The headers that need no nonce (nosniff, referrer
 * policy, frame-ancestors for every path) are in next.config.mjs.
 */
export function proxy(request: NextRequest): NextResponse {
  const policy = contentSecurityPolicy(newCspNonce(), { development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Pages only: not route handlers (JSON, NDJSON, downloads) nor built static assets.
      source: "/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
