import Database from "better-sqlite3";

/**
 * A map from text keys to row numbers kept in a private temporary SQLite database rather than in memory:
 * for a structure that grows with an upload's rows (its request ids), in what its page cache holds.
 * SQLite deletes the file when it is closed, or when the process dies. Keys are compared byte for byte
 * (BINARY collation on UTF-8).
 */
export class TemporaryRowMap {
  private readonly connection: Database.Database;
  private readonly select: Database.Statement<[string], { row: number }>;
  private readonly upsert: Database.Statement<[string, number]>;
  private readonly remove: Database.Statement<[string]>;
  private count = 0;

  /** `cacheKib`: the pages SQLite may hold in memory; the rest of the map is on disk. */
  constructor(cacheKib: number) {
    // An empty name: a temporary database, its file deleted as soon as it is opened (SQLite's own cleanup).
    this.connection = new Database("");
    this.connection.pragma("journal_mode = OFF");
    this.connection.pragma("synchronous = OFF");
    this.connection.pragma(`cache_size = -${Math.max(64, Math.floor(cacheKib))}`);
    this.connection.exec(`CREATE TABLE "keys" ("key" TEXT NOT NULL PRIMARY KEY, "row" INTEGER NOT NULL) WITHOUT ROWID`);
    // One transaction, never committed (nothing is read after close): pages reach the file only when the cache spills.
    this.connection.exec("BEGIN");
    this.select = this.connection.prepare(`SELECT "row" FROM "keys" WHERE "key" = ?`);
    this.upsert = this.connection.prepare(
      `INSERT INTO "keys" ("key", "row") VALUES (?, ?) ON CONFLICT ("key") DO UPDATE SET "row" = excluded."row"`,
    );
    this.remove = this.connection.prepare(`DELETE FROM "keys" WHERE "key" = ?`);
  }

  get size(): number {
    return this.count;
  }

  get(key: string): number | undefined {
    return this.select.get(key)?.row;
  }

  set(key: string, row: number): void {
    if (row <= 0 || !Number.isSafeInteger(row)) throw new RangeError("a row number is a positive integer");
    if (this.get(key) === undefined) this.count += 1;
    this.upsert.run(key, row);
  }

  delete(key: string): void {
    this.count -= this.remove.run(key).changes;
  }

  close(): void {
    if (this.connection.open) this.connection.close();
  }
}
