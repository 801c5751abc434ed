import { wrapConnections } from "./wrapConnections";

/**
 * SQLite's page cache per connection, for the direct connection and Prisma's alike: 4 MB, where
 * better-sqlite3's default is 16 MB. A process holds two connections on a store, and the pages they cached
 * stay in its resident memory: the web server after bench:ui's review pages at 100,000 rows held 37 MB of
 * native heap, 24 MB with this (2 MB left the page times and the memory where 4 MB did). A page that is
 * not cached is read again from the operating system's file cache, which the process does not pay for.
 */
export const SQLITE_PAGE_CACHE_PRAGMA = "cache_size = -4000";

type ScriptRunner = { executeScript(script: string): Promise<void> };

/** Wraps a Prisma SQLite driver adapter factory so each connection it opens takes the page cache above. */
export function withSqlitePageCache<F extends { connect(): Promise<ScriptRunner> }>(factory: F): F {
  return wrapConnections(factory, async (connection: ScriptRunner) => {
    await connection.executeScript(`PRAGMA ${SQLITE_PAGE_CACHE_PRAGMA}`);
    return connection;
  });
}
