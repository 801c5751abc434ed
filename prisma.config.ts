import path from "node:path";
import { defineConfig } from "prisma/config";

// The CLI (generate, validate) reads these; `npm run db:generate` passes each
// store's folder (prisma/sqlite, prisma/postgresql) with --schema, and the app
// picks its client from DATABASE_URL in lib/db/client.ts.
export default defineConfig({
  schema: path.join("prisma", "sqlite"),
  migrations: { path: path.join("prisma", "sqlite", "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/assay.db" },
});
