import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { guardBoundParameters } from "./store/boundParameters";
import { BUSY_TIMEOUT_MS, retryBusyStatements } from "./store/storeRetry";
import { PrismaClient } from "./generated/client";
import { prepareDatabaseFile, resolveDatabaseUrl } from "./databaseUrl";

export type Db = PrismaClient;

// On globalThis because Next bundles this module more than once (pages, route handlers) while getDb() shares one client.
const urls: WeakMap<Db, string> = ((globalThis as unknown as { assayDbUrls?: WeakMap<Db, string> }).assayDbUrls ??=
  new WeakMap());

/** Opens a Prisma client on a SQLite file. Tests pass their own URL; the app uses getDb(). */
export function createDb(url: string = resolveDatabaseUrl()): Db {
  prepareDatabaseFile(url);
  // A short synchronous busy wait, then asynchronous retries (storeRetry.ts): a lock held elsewhere never freezes the process.
  const adapter = retryBusyStatements(guardBoundParameters(new PrismaBetterSqlite3({ url, timeout: BUSY_TIMEOUT_MS })));
  const db = new PrismaClient({ adapter });
  urls.set(db, url);
  return db;
}

/** The file a client was opened on; bulk writers open their own connection to it. */
export function databaseUrlOf(db: Db): string {
  const url = urls.get(db);
  if (!url) throw new Error("this Prisma client was not created by createDb()");
  return url;
}

const globalForDb = globalThis as unknown as { assayDb?: Db };

/** The process-wide client (one per server process; survives dev hot reloads). */
export function getDb(): Db {
  globalForDb.assayDb ??= createDb();
  return globalForDb.assayDb;
}

/** WAL lets pages read while an upload or a run writes; the setting persists in the file. */
export async function enableWriteAheadLog(db: Db): Promise<void> {
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
}
