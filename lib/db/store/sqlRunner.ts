import type { Dialect } from "./dialect";

/**
 * A value bound to a statement. Arrays are id lists (see sqlFragments.inList), or on PostgreSQL a column of a
 * batch that `unnest` turns back into rows; Dates are timestamps.
 */
export type SqlValue =
  string | number | boolean | bigint | null | Date | readonly (string | number | boolean | Date | null)[];

/** Positional values for `?` placeholders, or named values for `@name` placeholders. */
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/**
 * `readCommitted` (PostgreSQL only; SQLite is always serializable): for hot
 * writes that touch only rows they lock or own (a judgment, a claim), where a
 * serializable transaction would fail and retry on a neighbour's concurrent
 * write instead of waiting for it.
 */
export type TransactionOptions = {
  readCommitted?: boolean;
  /**
   * PostgreSQL only: commit without waiting for the write-ahead log to reach
   * the disk (synchronous_commit off). A server crash may lose the last few
   * hundred milliseconds of such commits, each whole (the work is done again);
   * a worker's crash loses nothing. For the hot path of judging, where every
   * result of a worker updates its row of the run's spending: waiting for the
   * disk there, with the row locked, held a worker to about 150 results a second.
   */
  relaxedDurability?: boolean;
  /**
   * PostgreSQL only: the transaction's updates of judgments keep the run's tallies per statement (a few grouped
   * writes), not per judgment at COMMIT (migration kept_tally_deltas): for statements that write many judgments.
   */
  bulkTallies?: boolean;
  /**
   * SQLite only: the transaction writes many pages (a promoted label import: 14 MB). Its pages go to the
   * write-ahead log as its statements run, not all at COMMIT, and the log is copied into the file on
   * another thread afterwards, so neither blocks the process (sqliteRunner.ts).
   */
  manyPages?: boolean;
};

export type BulkTable = { table: string; columns: readonly string[]; rows: SqlValue[][] };

/**
 * Raw SQL against either store, written once: `?` or `@name` placeholders,
 * double-quoted identifiers and aliases (PostgreSQL folds an unquoted alias to
 * lower case), `= TRUE` for booleans, and sqlFragments for the few words
 * that differ. Results read the same on both stores: counts and sums are
 * numbers, booleans 1 or 0, timestamps the text Prisma stores on SQLite
 * (`2026-11-24T12:00:00.000+00:00`).
 *
 * Every repository call that Prisma's model API cannot express goes through
 * here; nothing outside lib/db sees a runner.
 */
export interface SqlRunner {
  readonly dialect: Dialect;
  all<T>(sql: string, params?: SqlParams): Promise<T[]>;
  get<T>(sql: string, params?: SqlParams): Promise<T | undefined>;
  /** Runs a write; resolves to the number of rows it changed. */
  run(sql: string, params?: SqlParams): Promise<number>;
  /**
   * Runs `work` in one transaction with the isolation SQLite always gives
   * (serializable), retried as a whole when the store asks for it (a lock
   * held elsewhere, a serialization failure), so `work` must touch nothing
   * but the store through `tx`. Using the outer runner inside `work` waits
   * for the transaction itself on SQLite: always use `tx`.
   */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Inserts rows into tables in one transaction: the upload, planning and import writers. */
  bulkInsert(tables: BulkTable[]): Promise<void>;
}
