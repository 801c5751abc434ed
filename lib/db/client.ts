import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client";
import { ensureDatabaseDirectory, resolveDatabaseUrl } from "./databaseUrl";

export type Db = PrismaClient;

/** Opens a Prisma client on a SQLite file. Tests pass their own URL; the app uses getDb(). */
export function createDb(url: string = resolveDatabaseUrl()): Db {
  ensureDatabaseDirectory(url);
  const adapter = new PrismaBetterSqlite3({ url });
  return new PrismaClient({ adapter });
}

const globalForDb = globalThis as unknown as { assayDb?: Db };

/** The process-wide client (one per server process; survives dev hot reloads). */
export function getDb(): Db {
  globalForDb.assayDb ??= createDb();
  return globalForDb.assayDb;
}
