import pg from "pg";
import { assertBoundParameterCount } from "./boundParameters";
import { toPostgresPlaceholders } from "./postgresPlaceholders";
import { bulkInsertStatement } from "./postgresBulkInsert";
import type { BulkTable, SqlParams, SqlRunner, SqlValue, TransactionOptions } from "./sqlRunner";
import { retryTransientPostgres } from "./postgresErrors";
import { sqlFragments } from "./sqlFragments";

type Queryable = pg.Pool | pg.PoolClient;

/**
 * Results read as they do on SQLite (sqlRunner.ts): counts and sums as
 * numbers, booleans as 1/0, timestamps as Prisma's SQLite text. Set per query,
 * not on pg's global types, because Prisma's adapter shares the pool and
 * parses its own results.
 */
const parsers: Record<number, (value: string) => unknown> = {
  20: (value) => Number(value), // int8: COUNT, SUM of integers
  1700: (value) => Number(value), // numeric: AVG, SUM of int8
  16: (value) => (value === "t" ? 1 : 0), // bool
  1114: timestampText, // timestamp (Prisma's DateTime: UTC without a zone)
  1184: (value) => new Date(value).toISOString().replace("Z", "+00:00"), // timestamptz: now()
};
const types = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    (format !== "binary" && parsers[oid]) || pg.types.getTypeParser(oid, format as "text"),
};

function timestampText(value: string): string {
  return new Date(`${value.replace(" ", "T")}Z`).toISOString().replace("Z", "+00:00");
}

/** The PostgreSQL runner: the pool Prisma's adapter also uses, so a process holds one set of connections. */
export class PostgresRunner implements SqlRunner {
  readonly dialect = "postgresql" as const;
  constructor(private readonly pool: pg.Pool) {}

  async all<T>(sql: string, params?: SqlParams): Promise<T[]> {
    return (await query<T>(this.pool, sql, params)).rows;
  }
  async get<T>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return (await query<T>(this.pool, sql, params)).rows[0];
  }
  async run(sql: string, params?: SqlParams): Promise<number> {
    return (await query(this.pool, sql, params)).rowCount ?? 0;
  }

  async transaction<T>(work: (tx: SqlRunner) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return retryTransientPostgres(async () => {
      const client = await this.pool.connect();
      let broken = false;
      try {
        // One round trip for both (a simple query may hold several statements when it binds no values).
        const begin = [
          options.readCommitted ? "BEGIN" : "BEGIN ISOLATION LEVEL SERIALIZABLE",
          ...(options.relaxedDurability ? ["SET LOCAL synchronous_commit = off"] : []),
          ...(options.bulkTallies ? [sqlFragments(this).bulkTallies?.begin ?? ""] : []),
        ];
        await client.query(begin.join("; "));
        try {
          const result = await work(new PostgresTransactionRunner(client));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => (broken = true));
          throw error;
        }
      } finally {
        client.release(broken);
      }
    });
  }

  async bulkInsert(tables: BulkTable[]): Promise<void> {
    await this.transaction((tx) => tx.bulkInsert(tables));
  }
}

class PostgresTransactionRunner implements SqlRunner {
  readonly dialect = "postgresql" as const;
  constructor(private readonly client: pg.PoolClient) {}

  async all<T>(sql: string, params?: SqlParams): Promise<T[]> {
    return (await query<T>(this.client, sql, params)).rows;
  }
  async get<T>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return (await query<T>(this.client, sql, params)).rows[0];
  }
  async run(sql: string, params?: SqlParams): Promise<number> {
    return (await query(this.client, sql, params)).rowCount ?? 0;
  }
  async transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return work(this);
  }
  async bulkInsert(tables: BulkTable[]): Promise<void> {
    for (const table of tables) {
      if (table.rows.length === 0) continue;
      const { text, values } = await bulkInsertStatement(this.client, table);
      await this.client.query({ text, values: values.map(toPostgresValue), types });
    }
  }
}

/** One statement; retried on its own only outside a transaction (inside one, a failure aborts the whole, which is retried). */
async function query<T>(
  target: Queryable,
  sql: string,
  params: SqlParams | undefined,
): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  const statement = toPostgresPlaceholders(sql);
  assertBoundParameterCount(statement.count, sql);
  const values = valuesFor(statement.names, params);
  const send = () => target.query<T & pg.QueryResultRow>({ text: statement.text, values, types });
  return target instanceof pg.Pool ? retryTransientPostgres(send) : send();
}

function valuesFor(names: string[] | null, params: SqlParams | undefined): unknown[] {
  if (!params) return [];
  if (Array.isArray(params)) return (params as readonly SqlValue[]).map(toPostgresValue);
  const named = params as Readonly<Record<string, SqlValue>>;
  return (names ?? []).map((name) => {
    if (!(name in named)) throw new Error(`no value for @${name}`);
    return toPostgresValue(named[name]);
  });
}

/** Dates as UTC text: pg would send local time, and Prisma's DateTime columns hold UTC without a zone. */
export function toPostgresValue(value: SqlValue): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map((item) => (item instanceof Date ? item.toISOString() : item));
  return value;
}
