import path from "node:path";
import { defineConfig } from "prisma/config";

// The CLI (generate, validate) reads the URL from here; the app resolves the
// same default in lib/db/databaseUrl.ts.
export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/assay.db" },
});
