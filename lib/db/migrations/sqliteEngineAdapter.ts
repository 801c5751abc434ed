import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";

// better-sqlite3 prepares one statement at a time; these are the errors it
// raises for a script (several statements, or only comments).
function isNotASingleStatement(error: unknown): boolean {
  return error instanceof RangeError && /contains (more than one|no) statements?/.test(error.message);
}

// Workaround for a 7.10.0 bug: the engine replays whole migration scripts on
// the SQLite shadow database through executeRaw, which better-sqlite3 rejects.
function scriptTolerant(inner: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query: SqlQuery) => inner.queryRaw(query),
    executeRaw: async (query: SqlQuery) => {
      try {
        return await inner.executeRaw(query);
      } catch (error) {
        if (query.args.length > 0 || !isNotASingleStatement(error)) throw error;
        await inner.executeScript(query.sql);
        return 0;
      }
    },
    executeScript: (script) => inner.executeScript(script),
    startTransaction: (isolationLevel) => inner.startTransaction(isolationLevel),
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    dispose: () => inner.dispose(),
  };
}

// Tracks every connection so close() can release file handles even if the
// engine keeps them alive until garbage collection.
export function sqliteMigrationFactory(url: string, opened: SqlDriverAdapter[]): SqlMigrationAwareDriverAdapterFactory {
  // unixepoch-ms is how the native engine stores _prisma_migrations timestamps.
  const factory = new PrismaBetterSqlite3({ url }, { timestampFormat: "unixepoch-ms" });
  const remember = (adapter: SqlDriverAdapter) => (opened.push(adapter), adapter);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => remember(await factory.connect()),
    connectToShadowDb: async () => remember(scriptTolerant(await factory.connectToShadowDb())),
  };
}
