import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf } from "@/lib/db/client";
import { sqliteFilePath } from "@/lib/db/databaseUrl";
import { connectionFor } from "@/lib/db/store/directSqlite";
import { createTempSqlite, testStore, type TempDb } from "../support/tempDb";

/** A large write: 40,000 staged labels, about 8 MB of pages. */
const FILL = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
  INSERT INTO "LabelImportStaging" ("importId", "fileRow", "fileLine", "rowId", "metric", "chunkPosition", "kind", "rating", "labelledBy", "createdAt")
  SELECT 'big', i, i + 1, 'row-' || i, 'response/llm_judged/correctness/rating', -1, 'rating', 'yes', 'someone who writes a long name', '2026-11-28T12:00:00.000+00:00' FROM n`;

let store: TempDb;
beforeAll(async () => {
  store = await createTempSqlite();
});
afterAll(async () => store.cleanup());

describe.skipIf(testStore() !== "sqlite")("a SQLite transaction that writes many pages", () => {
  it("is committed, its log is copied into the file off the thread, and the automatic checkpoint comes back", async () => {
    const file = sqliteFilePath(store.url);
    const connection = connectionFor(store.url);
    const fileBefore = fs.statSync(file).size;
    await sqlOf(store.db).transaction(async (tx) => tx.run(FILL), { manyPages: true });
    // The checkpoint copied the new pages into the file itself; without it they would sit in the log only.
    expect(fs.statSync(file).size).toBeGreaterThan(fileBefore + 4_000_000);
    expect(connection.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(connection.pragma("cache_size", { simple: true })).toBe(-4000);
    expect(await store.db.labelImportStaging.count()).toBe(40_000);
  });

  it("rolls back whole when its work fails, and still restores the connection's settings", async () => {
    const connection = connectionFor(store.url);
    await expect(
      sqlOf(store.db).transaction(
        async (tx) => {
          await tx.run(`DELETE FROM "LabelImportStaging"`);
          throw new Error("the import's last record was wrong");
        },
        { manyPages: true },
      ),
    ).rejects.toThrow("last record");
    expect(await store.db.labelImportStaging.count()).toBe(40_000);
    expect(connection.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(connection.pragma("cache_size", { simple: true })).toBe(-4000);
  });
});
