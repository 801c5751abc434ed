import path from "node:path";
import { defineConfig } from "vitest/config";

// Three kinds of project: `unit` (everything but the browser, on SQLite),
// `postgresql` (the store's tests again, on a real PostgreSQL started from npm:
// one suite, two backends) and `e2e` (the built app in Chromium); the first two
// each have an `-own-process` part (OWN_PROCESS below). `npm test` runs them
// all; `npm run test:unit` / `test:postgresql` / `test:e2e` one kind. A project's
// globalSetup (PostgreSQL's initdb, Chromium's unpack and one `next build`)
// runs only when its files are queued.
// The tests that read or write the store, run on PostgreSQL as well.
const POSTGRESQL_SUITE = [
  "tests/db/**/*.test.ts",
  "tests/workers/**/*.test.ts",
  "tests/engine/**/*.test.ts",
  // Uploads of every format, streamed into the store batch by batch.
  "tests/ingest/csvQuotes.test.ts",
  "tests/ingest/decodedBytesLimit.test.ts",
  "tests/ingest/deepJson.test.ts",
  "tests/ingest/emptyResponse.test.ts",
  "tests/engine/groupedJudgeCache.test.ts",
  "tests/ingest/filesAsSaved.test.ts",
  "tests/ingest/foreignColumns.test.ts",
  "tests/ingest/otherToolFormats.test.ts",
  "tests/ingest/parquetUpload.test.ts",
  "tests/ingest/traceUpload.test.ts",
  "tests/ingest/toolCallUpload.test.ts",
  "tests/ingest/conversationUpload.test.ts",
  "tests/ingest/uploadRowLimits.test.ts",
  // What a row page reads of its conversation, and its verdicts from the anchor.
  "tests/conversations/conversationQueries.test.ts",
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
  "tests/db/sqlitePageCache.test.ts",
  // SQLite's plans without statistics; PostgreSQL plans from its own.
  "tests/workers/idleSweepPlans.test.ts",
];

// What only PostgreSQL has: its migration history, applied on the project's server; and what is about the team
// store alone, several worker processes on one run.
const POSTGRESQL_ONLY = ["tests/db/postgresMigrations.test.ts", "tests/workers/multiWorker.test.ts"];

// Starts its own PostgreSQL (npm run db:local) whatever the project's store: run once, in `unit`.
const STORE_INDEPENDENT = ["tests/db/dbLocal.test.ts", "tests/db/localPostgresExitCode.test.ts"];

// Files that change what a process keeps between files: process.env, or the app's process-wide store client
// (getDb, on globalThis), which the app's routes and server modules open. Each runs in a process of its own;
// every other file shares its worker process with the files before it (SHARED_PROCESSES).
const OWN_PROCESS = [
  "tests/api/jsonBodyLimit.test.ts",
  "tests/auth/requireRoleApp.test.ts",
  "tests/engine/busyDatabase.test.ts",
  "tests/engine/oneRunRequest.test.ts",
  "tests/engine/raiseBudget.test.ts",
  "tests/engine/serverResume.test.ts",
  "tests/export/comparisonStatistics.test.ts",
  "tests/export/largeExport.test.ts",
  "tests/ingest/parquetUpload.test.ts",
  "tests/labels/labelFile.test.ts",
  "tests/labels/labelImportBounds.test.ts",
  // Counts a store query through vi.mock, which a process shared with other files would not see.
  "tests/workers/slotWaitEvents.test.ts",
];

// A file's modules imported once per worker process rather than once per file: on this 2-core machine the unit
// tests took 340 s with a process per file (114 s of it importing) and 230 s sharing (OWN_PROCESS apart); the
// whole suite in CI went from 1,491 s to 1,105 s. The guard fails a file that leaves process.env or the store
// client changed, naming OWN_PROCESS.
const SHARED_PROCESSES = { isolate: false, setupFiles: ["tests/support/sharedProcessGuard.ts"] };

// One migrated SQLite store per run, which every SQLite test store copies (tests/support/tempDb.ts).
const SQLITE_TEMPLATE = "tests/support/sqliteTemplateGlobalSetup.ts";
// The eval CLI bundled once per run, as `npm run eval` runs it; the tests spawn it (tests/support/spawnEval.ts).
const CLI_BUNDLE = "tests/support/cliBundleGlobalSetup.ts";

// Whether the postgresql project runs `file` (its globs are made of "**/", "*" and literal text).
function inPostgresqlSuite(file: string): boolean {
  const pieces: Record<string, string> = { "**/": "(?:.*/)?", "*": "[^/]*", ".": "\\." };
  const globToRegExp = (glob: string) => new RegExp(`^${glob.replace(/\*\*\/|\*|\./g, (piece) => pieces[piece])}$`);
  return (
    POSTGRESQL_SUITE.some((glob) => globToRegExp(glob).test(file)) &&
    ![...SQLITE_ONLY, ...STORE_INDEPENDENT].includes(file)
  );
}

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
        test: {
          name: "unit",
          ...SHARED_PROCESSES,
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/e2e/**", ...POSTGRESQL_ONLY, ...OWN_PROCESS],
          globalSetup: [SQLITE_TEMPLATE, CLI_BUNDLE],
        },
      },
      {
        extends: true,
        test: {
          name: "unit-own-process",
          include: OWN_PROCESS.filter((file) => !POSTGRESQL_ONLY.includes(file)),
          globalSetup: [SQLITE_TEMPLATE, CLI_BUNDLE],
        },
      },
      {
        extends: true,
        test: {
          name: "postgresql",
          ...SHARED_PROCESSES,
          include: POSTGRESQL_SUITE,
          exclude: [...SQLITE_ONLY, ...STORE_INDEPENDENT, ...OWN_PROCESS],
          env: { ASSAY_TEST_STORE: "postgresql" },
          globalSetup: ["tests/support/postgresGlobalSetup.ts", CLI_BUNDLE],
        },
      },
      {
        extends: true,
        test: {
          name: "postgresql-own-process",
          include: OWN_PROCESS.filter(inPostgresqlSuite),
          env: { ASSAY_TEST_STORE: "postgresql" },
          globalSetup: ["tests/support/postgresGlobalSetup.ts", CLI_BUNDLE],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          ...SHARED_PROCESSES,
          // A browser test is a walk of several pages, each rendered by the app's server and audited: 23 s for
          // the budget walk on a quiet run of this 2-core machine, past 30 s beside other work.
          testTimeout: 60_000,
          // expect.poll waits on the server's answer to a click: 1 s (vitest's default) is a quiet machine's
          // figure. A password hash or a server action under CI's load took longer and failed a correct page.
          // The condition polled is unchanged; a page that never shows it still fails.
          expect: { poll: { timeout: 10_000 } },
          include: ["tests/e2e/**/*.test.ts"],
          // PostgreSQL too, first: the reviewer's walk runs on both stores, and the e2e setup prepares a template
          // database on that server for the app servers that start on it.
          globalSetup: ["tests/support/postgresGlobalSetup.ts", "tests/e2e/globalSetup.ts", CLI_BUNDLE],
        },
      },
    ],
  },
});
