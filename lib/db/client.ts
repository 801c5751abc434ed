import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresClient } from "./generated/postgresql/client";
import { PrismaClient } from "./generated/sqlite/client";
import { prepareDatabaseFile, resolveDatabaseUrl, sqliteFilePath } from "./databaseUrl";
import { guardBoundParameters } from "./store/boundParameters";
import { dialectOfUrl, type Dialect } from "./store/dialect";
import { createPostgresPool } from "./store/postgresPool";
import { PostgresRunner } from "./store/postgresRunner";
import { SqliteRunner } from "./store/sqliteRunner";
import type { SqlRunner } from "./store/sqlRunner";
import { registerStore, storeOf } from "./store/storeRegistry";
import { BUSY_TIMEOUT_MS, retryBusyStatements } from "./store/storeRetry";
import { closeDirectConnection } from "./store/directSqlite";
import { checkpointSettled } from "./store/backgroundCheckpoint";
import { withSqlitePageCache } from "./store/sqlitePageCache";

/**
 * The Prisma client, typed as the SQLite one: the PostgreSQL client's types
 * only add options (case-insensitive filters, skipDuplicates), so code typed
 * against this compiles to calls both stores accept.
 */
export type Db = PrismaClient;

/** Opens a Prisma client on the store the URL names (a SQLite file or PostgreSQL). Tests pass their own URL; the app uses getDb(). */
export function createDb(url: string = resolveDatabaseUrl()): Db {
  if (dialectOfUrl(url) === "postgresql") {
    const pool = createPostgresPool(url);
    const db = new PostgresClient({ adapter: guardBoundParameters(new PrismaPg(pool)) }) as unknown as Db;
    registerStore(db, { url, dialect: "postgresql", runner: new PostgresRunner(pool), pool, closeHooks: [] });
    return db;
  }
  prepareDatabaseFile(url);
  // A short synchronous busy wait, then asynchronous retries (storeRetry.ts): a lock held elsewhere never freezes the process.
  const adapter = retryBusyStatements(
    guardBoundParameters(withSqlitePageCache(new PrismaBetterSqlite3({ url, timeout: BUSY_TIMEOUT_MS }))),
  );
  const db = new PrismaClient({ adapter });
  registerStore(db, { url, dialect: "sqlite", runner: new SqliteRunner(url), pool: null, closeHooks: [] });
  return db;
}

/** The URL a client was opened on. */
export function databaseUrlOf(db: Db): string {
  return storeOf(db).url;
}

/** Which store a client talks to: for lib/db/store and migrations only; repositories use sqlOf and sqlFragments. */
export function dialectOf(db: Db): Dialect {
  return storeOf(db).dialect;
}

/**
 * Whether a read holds the process's only thread while it runs: SQLite's statements run synchronously
 * in-process, PostgreSQL's wait on the network. Callers that batch many heavy reads space them out only
 * when they do (lib/db/cache/completedRunReads.ts).
 */
export function readsHoldTheThread(db: Db): boolean {
  return dialectOf(db) === "sqlite";
}

/** The raw-SQL runner on a client's store (sqlRunner.ts). */
export function sqlOf(db: Db): SqlRunner {
  return storeOf(db).runner;
}

/** Runs `hook` when the client is closed with closeDb, before its connections go. */
export function onStoreClose(db: Db, hook: () => Promise<void>): void {
  storeOf(db).closeHooks.push(hook);
}

/** Closes a client and every connection lib/db opened beside it (tests drop their stores afterwards). */
export async function closeDb(db: Db): Promise<void> {
  const store = storeOf(db);
  await Promise.allSettled(store.closeHooks.splice(0).map((hook) => hook()));
  await db.$disconnect();
  if (store.pool) await store.pool.end().catch(() => {});
  else {
    await checkpointSettled(sqliteFilePath(store.url));
    closeDirectConnection(store.url);
  }
}

const globalForDb = globalThis as unknown as { assayDb?: Db };

/** The process-wide client (one per server process; survives dev hot reloads). */
export function getDb(): Db {
  globalForDb.assayDb ??= createDb();
  return globalForDb.assayDb;
}

/** Whether this process has opened getDb()'s client (tests that share a process must not leave it behind). */
export function processStoreClientOpened(): boolean {
  return globalForDb.assayDb !== undefined;
}

/**
 * PostgreSQL plans from table statistics, which autovacuum gathers about a minute after a bulk write;
 * read before that, a paired read of two fresh runs took seconds instead of milliseconds. A benchmark
 * that reads right after seeding gathers them first. SQLite plans without statistics, as the app runs it.
 */
export async function gatherPlannerStatistics(db: Db): Promise<void> {
  if (dialectOf(db) === "postgresql") await sqlOf(db).run("ANALYZE");
}

/** The tables a bulk write fills: a run's judgments, an upload's rows, an imported label file. */
export type BulkWrittenTable =
  | "JudgmentItem"
  | "ChunkJudgment"
  | "RunRowVerdict"
  | "Generation"
  | "DatasetRow"
  | "ContextChunk"
  | "ToolCall"
  | "HumanLabel"
  | "PersonLabel";

/**
 * After a bulk write on PostgreSQL, its tables' statistics now rather than when autovacuum next looks: a
 * minute later, or never when the write is a small share of a large table. The first reader of a finished
 * run is right behind it; with a dataset's labels and two runs of 1,000 rows not yet analyzed, the
 * agreement reads took 863 and 1,780 ms, and 67 and 159 ms analyzed. Best effort: a table that another
 * process is analyzing is left to it (SKIP_LOCKED), and a failure costs only the fresh statistics.
 */
export async function refreshPlannerStatistics(db: Db, tables: readonly BulkWrittenTable[]): Promise<void> {
  if (dialectOf(db) !== "postgresql" || tables.length === 0) return;
  await sqlOf(db)
    .run(`ANALYZE (SKIP_LOCKED) ${tables.map((table) => `"${table}"`).join(", ")}`)
    .catch(() => {});
}

/** WAL lets pages read while an upload or a run writes; the setting persists in the file. PostgreSQL needs nothing. */
export async function enableWriteAheadLog(db: Db): Promise<void> {
  if (dialectOf(db) === "sqlite") await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
}
