import type { Prisma } from "../generated/sqlite/client";
import type { Dialect } from "./dialect";

/**
 * The few words of SQL that differ between SQLite and PostgreSQL, each in one
 * place. Everything else is written once and runs on both: `= TRUE` for
 * booleans (SQLite reads TRUE as 1), `COUNT(*) FILTER (WHERE …)` instead of
 * summing booleans, `IS NOT DISTINCT FROM` for a null-safe comparison,
 * `INSERT … ON CONFLICT … DO NOTHING / DO UPDATE`, double-quoted aliases.
 */
export type SqlFragments = {
  /** The smaller and larger of two values (SQLite's scalar MIN/MAX; PostgreSQL's LEAST/GREATEST). */
  least(a: string, b: string): string;
  greatest(a: string, b: string): string;
  /** A number truncated toward zero to an integer (a CAST rounds on PostgreSQL). */
  truncToInt(expression: string): string;
  /**
   * `column` is one of a list bound at `placeholder` (`?` or `@name`) as one
   * array value: the list travels as a single value, whatever its length.
   */
  inList(column: string, placeholder?: string, type?: "text" | "int"): string;
  /** A planner hint naming an index; only SQLite takes one (PostgreSQL plans from statistics). */
  indexHint(index: string): string;
  /**
   * `LEFT JOIN` of the one row of `table` (as `alias`, exposing `columns`) that `condition` finds by a unique
   * key, looked up per outer row. SQLite always joins that way; PostgreSQL gets a LATERAL subquery, because
   * between a small outer set and a big table its cost model may prefer reading the whole table into a hash
   * (measured: a 1,000-row dataset's 8,000 labels against a store of 1,000,000 chunk verdicts took
   * 600–780 ms that way, against 40–100 ms through the index).
   */
  leftJoinOne(table: string, alias: string, columns: readonly string[], condition: string): string;
  /** `column` contains the LIKE pattern bound at `placeholder`, ignoring case as SQLite's LIKE does for ASCII. */
  likeIgnoringCase(column: string, placeholder?: string): string;
  /** One field of a JSON object stored as text, as text. */
  jsonText(column: string, key: string): string;
  /** A JSON array of strings stored as text has, as one whole element, the text bound at `placeholder`. */
  jsonArrayHas(column: string, placeholder?: string): string;
  /**
   * Ends a SELECT that picks rows to claim: on PostgreSQL it locks them and
   * skips rows another transaction holds, so concurrent claimers never wait
   * for, or take, each other's rows; SQLite's one writer at a time needs nothing.
   */
  skipLocked(): string;
  /** Ends a SELECT whose rows the transaction will update (PostgreSQL locks them; SQLite's transaction holds the write lock). */
  forUpdate(): string;
  /**
   * The store's clock, `offsetMs` from now, as a DateTime column holds it.
   * Workers on several machines compare heartbeats by one clock, the
   * database's, never by each machine's own.
   */
  storeTime(offsetMs?: number): string;
  /** Milliseconds from a DateTime column to the store's clock now. */
  ageMs(column: string): string;
  /**
   * The statement that folds the kept tallies' deltas into their totals, returning `folded`: PostgreSQL's
   * triggers write each change as a delta row (migration kept_tally_deltas); SQLite's add to the totals at
   * once, so it has none (null).
   */
  foldKeptTallies: string | null;
  /**
   * Said before and after one statement that updates thousands of judgments (a re-judge's reset): PostgreSQL
   * then keeps the tallies of the whole statement in a few grouped writes instead of a row event each at
   * COMMIT (migration kept_tally_deltas). SQLite's row triggers need nothing (null).
   */
  bulkTallies: { begin: string; end: string } | null;
};

const sqlite: SqlFragments = {
  least: (a, b) => `MIN(${a}, ${b})`,
  greatest: (a, b) => `MAX(${a}, ${b})`,
  truncToInt: (expression) => `CAST(${expression} AS INTEGER)`,
  inList: (column, placeholder = "?") => `${column} IN (SELECT value FROM json_each(${placeholder}))`,
  indexHint: (index) => ` INDEXED BY "${index}"`,
  leftJoinOne: (table, alias, _columns, condition) => `LEFT JOIN "${table}" ${alias} ON ${condition}`,
  likeIgnoringCase: (column, placeholder = "?") => `${column} LIKE ${placeholder} ESCAPE '\\'`,
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  jsonArrayHas: (column, placeholder = "?") =>
    `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ${placeholder})`,
  skipLocked: () => "",
  forUpdate: () => "",
  // Prisma's text for a DateTime on SQLite (directSqlite.ts sqliteTimestamp), so comparisons stay textual.
  storeTime: (offsetMs = 0) =>
    `strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'${offsetMs ? `, '${Math.trunc(offsetMs) / 1000} seconds'` : ""})`,
  ageMs: (column) => `CAST((julianday('now') - julianday(${column})) * 86400000 AS INTEGER)`,
  foldKeptTallies: null,
  bulkTallies: null,
};

const postgresql: SqlFragments = {
  least: (a, b) => `LEAST(${a}, ${b})`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  truncToInt: (expression) => `TRUNC(${expression})::int`,
  inList: (column, placeholder = "?", type = "text") => `${column} = ANY(${placeholder}::${type}[])`,
  indexHint: () => "",
  leftJoinOne: (table, alias, columns, condition) =>
    `LEFT JOIN LATERAL (SELECT ${columns.map((column) => `${alias}."${column}"`).join(", ")} FROM "${table}" ${alias} WHERE ${condition} LIMIT 1) ${alias} ON TRUE`,
  likeIgnoringCase: (column, placeholder = "?") => `${column} ILIKE ${placeholder} ESCAPE '\\'`,
  jsonText: (column, key) => `(${column}::jsonb ->> '${key}')`,
  jsonArrayHas: (column, placeholder = "?") => `(${column})::jsonb @> jsonb_build_array(${placeholder}::text)`,
  skipLocked: () => " FOR UPDATE SKIP LOCKED",
  forUpdate: () => " FOR UPDATE",
  // DateTime columns hold UTC without a zone.
  storeTime: (offsetMs = 0) =>
    `(now() AT TIME ZONE 'UTC')${offsetMs ? ` + interval '${Math.trunc(offsetMs)} milliseconds'` : ""}`,
  ageMs: (column) => `(EXTRACT(EPOCH FROM ((now() AT TIME ZONE 'UTC') - ${column})) * 1000)::bigint`,
  foldKeptTallies: `SELECT "fold_kept_tallies"() AS "folded"`,
  bulkTallies: {
    begin: `SELECT set_config('assay.bulk_tallies', 'on', true)`,
    end: `SELECT set_config('assay.bulk_tallies', 'off', true)`,
  },
};

export function sqlFragments(store: { dialect: Dialect }): SqlFragments {
  return store.dialect === "postgresql" ? postgresql : sqlite;
}

/** Prisma's `contains` ignoring case on both stores (SQLite's LIKE already does; PostgreSQL needs the mode). */
export function containsIgnoringCase(store: { dialect: Dialect }, text: string): Prisma.StringFilter {
  return (
    store.dialect === "postgresql" ? { contains: text, mode: "insensitive" } : { contains: text }
  ) as Prisma.StringFilter;
}
