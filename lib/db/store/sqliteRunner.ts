import type Database from "better-sqlite3";
import { connectionFor, insertRows, preparedStatement, sqliteTimestamp } from "./directSqlite";
import { checkpointOffThreadAfter } from "./backgroundCheckpoint";
import type { BulkTable, SqlParams, SqlRunner, SqlValue, TransactionOptions } from "./sqlRunner";
import { retryWhileBusy } from "./storeRetry";

type Bindable = string | number | bigint | null;

/**
 * The SQLite runner: better-sqlite3 prepared statements on the file's direct
 * connection (directSqlite.ts says why not Prisma's). Statements run
 * synchronously, so a result is ready before anything else runs; a
 * transaction spans awaits, so while one is open on the connection every other
 * caller in the process waits for it, or its statements would join it.
 */
// Per connection, not per runner: two clients on one file (a test's, the engine's) share the connection.
const openTransactions = new WeakMap<Database.Database, Promise<void>>();

export class SqliteRunner implements SqlRunner {
  readonly dialect = "sqlite" as const;

  constructor(private readonly databaseUrl: string) {}

  async all<T>(sql: string, params?: SqlParams): Promise<T[]> {
    return retryWhileBusy(async () => {
      const connection = this.connection();
      while (openTransactions.has(connection)) await openTransactions.get(connection);
      return preparedStatement(connection, sql).all(...bind(params)) as T[];
    });
  }

  async get<T>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return retryWhileBusy(async () => {
      const connection = this.connection();
      while (openTransactions.has(connection)) await openTransactions.get(connection);
      return preparedStatement(connection, sql).get(...bind(params)) as T | undefined;
    });
  }

  async run(sql: string, params?: SqlParams): Promise<number> {
    return retryWhileBusy(async () => {
      const connection = this.connection();
      while (openTransactions.has(connection)) await openTransactions.get(connection);
      return preparedStatement(connection, sql).run(...bind(params)).changes;
    });
  }

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (!options.manyPages) return this.transactionOnce(work, false);
    return checkpointOffThreadAfter(this.connection(), () => this.transactionOnce(work, true));
  }

  private async transactionOnce<T>(work: (tx: SqlRunner) => Promise<T>, manyPages: boolean): Promise<T> {
    return retryWhileBusy(async () => {
      const connection = this.connection();
      // Checked and taken in one synchronous step: an await between the two would let another caller in.
      while (openTransactions.has(connection)) await openTransactions.get(connection);
      let release!: () => void;
      openTransactions.set(connection, new Promise<void>((resolve) => (release = resolve)));
      const restoreCache = manyPages ? spillEarly(connection) : undefined;
      try {
        // IMMEDIATE takes the write lock up front: a deferred transaction that reads, then writes, can fail half-way.
        // Prepared once per connection: preparing them again cost every transaction more than a small write.
        preparedStatement(connection, "BEGIN IMMEDIATE").run();
        try {
          const result = await work(new SqliteTransactionRunner(connection));
          preparedStatement(connection, "COMMIT").run();
          return result;
        } catch (error) {
          if (connection.inTransaction) preparedStatement(connection, "ROLLBACK").run();
          throw error;
        }
      } finally {
        if (connection.open) restoreCache?.();
        openTransactions.delete(connection);
        release();
      }
    });
  }

  async bulkInsert(tables: BulkTable[]): Promise<void> {
    await this.transaction((tx) => tx.bulkInsert(tables));
  }

  private connection(): Database.Database {
    return connectionFor(this.databaseUrl);
  }
}

/**
 * Shrinks the page cache for a transaction that writes many pages; returns what puts it back. Its pages spill
 * to the log once 2 MB are dirty, as its statements run between the event loop's turns, instead of 16 MB
 * (better-sqlite3's cache, before sqlitePageCache.ts made it 4 MB) at once in COMMIT: a promoted
 * 20,000-label import's COMMIT went from 160–200 ms to about 25.
 */
function spillEarly(connection: Database.Database): () => void {
  const cacheSize = Number(connection.pragma("cache_size", { simple: true }));
  connection.pragma("cache_size = -2000");
  return () => connection.pragma(`cache_size = ${cacheSize}`);
}

/** The runner a transaction's work receives: statements go straight to the connection that holds the transaction. */
class SqliteTransactionRunner implements SqlRunner {
  readonly dialect = "sqlite" as const;
  constructor(private readonly connection: Database.Database) {}

  async all<T>(sql: string, params?: SqlParams): Promise<T[]> {
    return preparedStatement(this.connection, sql).all(...bind(params)) as T[];
  }
  async get<T>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return preparedStatement(this.connection, sql).get(...bind(params)) as T | undefined;
  }
  async run(sql: string, params?: SqlParams): Promise<number> {
    return preparedStatement(this.connection, sql).run(...bind(params)).changes;
  }
  async transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return work(this);
  }
  async bulkInsert(tables: BulkTable[]): Promise<void> {
    for (const { table, columns, rows } of tables) insertRows(this.connection, table, columns, rows, toSqliteValue);
  }
}

/** better-sqlite3 takes positional values as arguments and named ones as one object. */
function bind(params: SqlParams | undefined): Bindable[] | [Record<string, Bindable>] {
  if (!params) return [];
  if (Array.isArray(params)) return (params as readonly SqlValue[]).map(toSqliteValue);
  return [Object.fromEntries(Object.entries(params).map(([name, value]) => [name, toSqliteValue(value)]))];
}

/** Booleans as 1/0, timestamps as Prisma's text, id lists as JSON (read back with json_each). */
export function toSqliteValue(value: SqlValue): Bindable {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return sqliteTimestamp(value);
  if (Array.isArray(value)) return JSON.stringify(value);
  return value as Bindable;
}
