import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { createTempDb, type TempDb } from "../support/tempDb";

// Transactions begun at the same moment through lib/db's runner, on either
// store: each runs whole and alone (SQLite: one after another on the file's
// connection; PostgreSQL: serializable, a conflicting one run again), and a
// statement sent meanwhile never lands inside one of them.

let temp: TempDb;
let db: Db;

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  await db.setting.create({ data: { key: "counter", value: "0" } });
});

afterAll(async () => {
  await temp?.cleanup();
});

const readCounter = async () =>
  Number((await sqlOf(db).get<{ value: string }>(`SELECT "value" FROM "Setting" WHERE "key" = 'counter'`))?.value);

describe("the runner's transactions", () => {
  it("run whole when many begin at once: no increment lost", async () => {
    const sql = sqlOf(db);
    const increments = Array.from({ length: 12 }, () =>
      sql.transaction(async (tx) => {
        const row = await tx.get<{ value: string }>(`SELECT "value" FROM "Setting" WHERE "key" = 'counter'`);
        // Another step of the event loop between the read and the write, as real work has.
        await new Promise((resolve) => setImmediate(resolve));
        await tx.run(`UPDATE "Setting" SET "value" = ? WHERE "key" = 'counter'`, [String(Number(row?.value) + 1)]);
      }),
    );
    await Promise.all(increments);
    expect(await readCounter()).toBe(12);
  });

  it("keep a statement sent meanwhile out of a transaction that rolls back", async () => {
    const sql = sqlOf(db);
    const before = await readCounter();
    const failing = sql.transaction(async (tx) => {
      await tx.run(`UPDATE "Setting" SET "value" = '-1' WHERE "key" = 'counter'`);
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error("the work failed");
    });
    const outside = sql.run(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES ('other', '1', ?)`, [
      new Date(),
    ]);
    await expect(failing).rejects.toThrow("the work failed");
    await outside;
    expect(await readCounter()).toBe(before);
    expect(await sql.get(`SELECT "value" FROM "Setting" WHERE "key" = 'other'`)).toEqual({ value: "1" });
  });
});
