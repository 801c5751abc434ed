import type Database from "better-sqlite3";
import { bulkInsert, connectionFor, preparedStatement, sqliteTimestamp } from "./directSqlite";
import type { BulkTable, SqlParams, SqlRunner, SqlValue } from "./sqlRunner";
import { retryWhileBusy } from "./storeRetry";

type Bindable = string | number | bigint | null;

/**
 * The transaction open on each file's direct connection (one connection per
 * file in the process, shared by every client on it): while one is open,
 * every other statement of the process on that file waits for it.
 */
const openTransactions = new Map<string, Promise<void>>();

/**
 * The SQLite runner: better-sqlite3 prepared statements on the file's direct
 * connection (directSqlite.ts says why not Prisma's). Statements run
 * synchronously, so a result is ready before anything else runs; a
 * transaction spans awaits, so while one is open on the connection every other
 * caller in the process waits for it, or its statements would join it.
 */
export class SqliteRunner implements SqlRunner {
  readonly dialect = "sqlite" as const;

  constructor(private readonly databaseUrl: string) {}

  all<T>(sql: string, params?: SqlParams): Promise<T[]> {
    return retryWhileBusy(() => this.whenIdle(() => this.statement(sql).all(...bind(params)) as T[]));
  }

  get<T>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return retryWhileBusy(() => this.whenIdle(() => this.statement(sql).get(...bind(params)) as T | undefined));
  }

  run(sql: string, params?: SqlParams): Promise<number> {
    return retryWhileBusy(() => this.whenIdle(() => this.statement(sql).run(...bind(params)).changes));
  }

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return retryWhileBusy(async () => {
      const release = await this.whenIdle(() => this.hold());
      const connection = this.connection();
      try {
        // IMMEDIATE takes the write lock up front: a deferred transaction that reads, then writes, can fail half-way.
        connection.prepare("BEGIN IMMEDIATE").run();
        try {
          const result = await work(new SqliteTransactionRunner(connection));
          connection.prepare("COMMIT").run();
          return result;
        } catch (error) {
          if (connection.inTransaction) connection.prepare("ROLLBACK").run();
          throw error;
        }
      } finally {
        release();
      }
    });
  }

  bulkInsert(tables: BulkTable[]): Promise<void> {
    const rows = tables.map((table) => ({ ...table, rows: table.rows.map((row) => row.map(toSqliteValue)) }));
    return retryWhileBusy(() => this.whenIdle(() => bulkInsert(this.databaseUrl, rows)));
  }

  /**
   * Runs `statement` once no transaction is open on the file's connection,
   * in the same step as the check: with an await between them, a
   * transaction could begin in the gap and the statement would run inside it
   * (or a second BEGIN would fail, "cannot start a transaction within a
   * transaction").
   */
  private async whenIdle<T>(statement: () => T): Promise<T> {
    for (let open = openTransactions.get(this.databaseUrl); open; open = openTransactions.get(this.databaseUrl))
      await open;
    return statement();
  }

  /** Marks a transaction open on the file's connection; the returned function ends the mark. */
  private hold(): () => void {
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    openTransactions.set(this.databaseUrl, open);
    return () => {
      openTransactions.delete(this.databaseUrl);
      release();
    };
  }

  private connection(): Database.Database {
    return connectionFor(this.databaseUrl);
  }

  private statement(sql: string): Database.Statement {
    return preparedStatement(this.connection(), sql);
  }
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
    for (const { table, columns, rows } of tables) {
      const insert = preparedStatement(
        this.connection,
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      );
      for (const row of rows) insert.run(...row.map(toSqliteValue));
    }
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
