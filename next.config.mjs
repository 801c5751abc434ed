/**
 * Hosts (host[:port], `*.domain` for subdomains) that may send server actions and
 * uploads besides Assay's own: a proxy that serves it under another name.
 * Same parsing as lib/server/sameOrigin.ts allowedOriginHosts, which route handlers use.
 */
const allowedOrigins = (process.env.ASSAY_ALLOWED_ORIGINS ?? "")
  .split(",")
  .map((entry) =>
    entry
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
      .replace(/\/.*$/, ""),
  )
  .filter(Boolean);

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The native SQLite driver and the generated Prisma client stay on the server, unbundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/client"],
  poweredByHeader: false,
  // The browser tests' build (tests/e2e/globalSetup.ts) skips Next's own type check: CI type-checks the whole
  // project once with `npm run typecheck` before the tests, and the check took a third of the build.
  typescript: { ignoreBuildErrors: process.env.ASSAY_BUILD_SKIP_TYPECHECK === "1" },
  experimental: {
    // Uploads stream through a route handler, not through server actions; keep actions small.
    // Next refuses a server action whose Origin is not this host or one of allowedOrigins.
    serverActions: { bodySizeLimit: "1mb", allowedOrigins },
    // Each page's server code is loaded on its first request rather than all at start: the server answered its
    // first page at 176 MB instead of 214 MB, and after a run page at 192 MB instead of 237 MB (a first visit to
    // a page costs its modules' load once; npm run bench:ui at 100,000 rows held every target with it).
    preloadEntriesOnStart: false,
  },
  // On every response, pages, route handlers and assets alike. The page CSP, which needs a
  // per-request nonce, is set by proxy.ts; this one only forbids framing and plugins everywhere
  // (a response with two policies must satisfy both).
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'; object-src 'none'; base-uri 'self'" },
        ],
      },
    ];
  },
};

export default nextConfig;
