import path from "node:path";
import { defineConfig } from "vitest/config";

// Three projects: `unit` (everything but the browser, on SQLite), `postgresql`
// (the store's tests again, on a real PostgreSQL started from npm: one suite,
// two backends) and `e2e` (the built app in Chromium). `npm test` runs all
// three; `npm run test:unit` / `test:postgresql` / `test:e2e` one. A project's
// globalSetup (PostgreSQL's initdb, Chromium's unpack and one `next build`)
// runs only when its files are queued.
// The tests that read or write the store, run on PostgreSQL as well.
const POSTGRESQL_SUITE = [
  "tests/db/**/*.test.ts",
  "tests/workers/**/*.test.ts",
  // Labels, agreement, accounts and sign-in.
  "tests/labels/**/*.test.ts",
  "tests/auth/**/*.test.ts",
];

// What is about the team store alone: several worker processes on one run.
const POSTGRESQL_ONLY = ["tests/workers/multiWorker.test.ts"];

// What only SQLite has: its file (modes, locks held by another process), its migration history and data step.
const SQLITE_ONLY = [
  "tests/db/databaseFileModes.test.ts",
  "tests/db/labelHashFill.test.ts",
  "tests/db/labelHashMigration.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 240_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/**/*.test.ts"], exclude: ["tests/e2e/**", ...POSTGRESQL_ONLY] },
      },
      {
        extends: true,
        test: {
          name: "postgresql",
          include: POSTGRESQL_SUITE,
          exclude: SQLITE_ONLY,
          env: { ASSAY_TEST_STORE: "postgresql" },
          globalSetup: ["tests/support/postgresGlobalSetup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          // PostgreSQL too: the reviewer's walk runs on both stores.
          globalSetup: ["tests/e2e/globalSetup.ts", "tests/support/postgresGlobalSetup.ts"],
        },
      },
    ],
  },
});
