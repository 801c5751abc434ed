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
  "tests/engine/**/*.test.ts",
  // Uploads of every format, streamed into the store batch by batch.
  "tests/ingest/csvQuotes.test.ts",
  "tests/ingest/deepJson.test.ts",
  "tests/ingest/filesAsSaved.test.ts",
  "tests/ingest/foreignColumns.test.ts",
  "tests/ingest/otherToolFormats.test.ts",
  "tests/ingest/parquetUpload.test.ts",
  "tests/ingest/traceUpload.test.ts",
  "tests/ingest/uploadRowLimits.test.ts",
  "tests/charts/**/*.test.ts",
  "tests/compare/**/*.test.ts",
  "tests/export/**/*.test.ts",
  // Labels, agreement, accounts and sign-in.
  "tests/labels/**/*.test.ts",
  "tests/auth/**/*.test.ts",
];

// What only SQLite has: its file (modes, locks held by another process), its migration history and data step.
const SQLITE_ONLY = [
  "tests/db/databaseFileModes.test.ts",
  // Another process holding SQLite's one write lock; PostgreSQL locks rows, and its own faults are in postgresErrors.
  "tests/engine/busyDatabase.test.ts",
  // SQLite's history on a file; tests/db/postgresMigrations.test.ts checks PostgreSQL's.
  "tests/db/migrations.test.ts",
  "tests/db/labelHashFill.test.ts",
  "tests/db/labelHashMigration.test.ts",
];

// What only PostgreSQL has: its migration history, applied on the project's server; and what is about the team
// store alone, several worker processes on one run.
const POSTGRESQL_ONLY = ["tests/db/postgresMigrations.test.ts", "tests/workers/multiWorker.test.ts"];

// Starts its own PostgreSQL (npm run db:local) whatever the project's store: run once, in `unit`.
const STORE_INDEPENDENT = ["tests/db/dbLocal.test.ts", "tests/db/localPostgresExitCode.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 240_000,
    pool: "forks",
    // Two files at a time. Vitest's default on two cores is one (cores − 1), which leaves a core idle while
    // the browser tests wait on a server or a fake LLM: on this 2-core machine the whole suite took 1,167 s
    // one file at a time and 804 s two at a time, with the same results.
    maxWorkers: 2,
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
          exclude: [...SQLITE_ONLY, ...STORE_INDEPENDENT],
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
