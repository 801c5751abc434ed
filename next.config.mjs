/** @type {import('next').NextConfig} */
const nextConfig = {
  // The native SQLite driver and the generated Prisma client stay on the server, unbundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/client"],
  poweredByHeader: false,
  experimental: {
    // Uploads stream through a route handler, not through server actions; keep actions small.
    serverActions: { bodySizeLimit: "1mb" },
  },
};

export default nextConfig;
