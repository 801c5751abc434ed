// Each SQLite connection a process opens on the store, Prisma's and the direct one, caches at most 4 MB of
// pages (lib/db/store/sqlitePageCache.ts), where better-sqlite3 would cache 16 MB: what they cached stays in
// the process's resident memory. (tests/db/manyPagesTransaction.test.ts: a transaction that shrinks it to
// spill early puts it back.)
import { afterEach, describe, expect, it } from "vitest";
import { connectionFor } from "@/lib/db/store/directSqlite";
import { createTempSqlite, type TempDb } from "../support/tempDb";

let store: TempDb | null = null;
afterEach(async () => {
  await store?.cleanup();
  store = null;
});

describe("SQLite's page cache", () => {
  it("is 4 MB on Prisma's connection and on the direct one", async () => {
    store = await createTempSqlite();
    const [prisma] = await store.db.$queryRawUnsafe<{ cache_size: number | bigint }[]>("PRAGMA cache_size");
    expect(Number(prisma.cache_size)).toBe(-4000);
    expect(Number(connectionFor(store.url).pragma("cache_size", { simple: true }))).toBe(-4000);
  });
});
