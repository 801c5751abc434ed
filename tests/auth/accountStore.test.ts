import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/createAuth";
import { sqlOf, type Db } from "@/lib/db/client";
import { isLastActiveAdminRefusal, LAST_ACTIVE_ADMIN_MARKER } from "@/lib/db/accounts/activeAdmins";
import { authAdapterProvider } from "@/lib/db/accounts/authAdapterProvider";
import { createTempDb, testStore, type TempDb } from "../support/tempDb";
import { TEST_SECRET } from "./authKit";

// Accounts on whichever store the project runs (SQLite, or PostgreSQL): Better
// Auth is told the store it writes to, and the last-active-admin refusal is
// recognised from what that store says, whichever way the write was sent.

let temp: TempDb;
let db: Db;

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  await db.user.create({ data: { id: "ada", name: "Ada", email: "ada@example.com", role: "admin" } });
});

afterAll(async () => {
  await temp?.cleanup();
});

/** The error a write throws (none: null). */
async function refusalOf(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
    return null;
  } catch (error) {
    return error;
  }
}

describe("Better Auth's adapter", () => {
  it("is given the provider of the store it writes to", async () => {
    expect(authAdapterProvider(db)).toBe(testStore());
    const auth = createAuth({ db, secret: TEST_SECRET, baseURL: "http://127.0.0.1:1", rateLimit: false });
    const { adapter } = await auth.$context;
    const config = (adapter.options as { adapterConfig: { supportsArrays: boolean } }).adapterConfig;
    // Better Auth's Prisma adapter stores list fields as arrays on PostgreSQL only: it knows the store from the provider.
    expect(config.supportsArrays).toBe(testStore() === "postgresql");
  });
});

describe("the last-active-admin refusal", () => {
  it("is recognised from a Prisma model write, a Prisma raw write and lib/db's runner alike", async () => {
    const refusals = [
      await refusalOf(() => db.user.update({ where: { id: "ada" }, data: { role: "viewer" } })),
      await refusalOf(() => db.user.delete({ where: { id: "ada" } })),
      await refusalOf(() => db.$executeRawUnsafe(`UPDATE "User" SET "banned" = TRUE`)),
      await refusalOf(() => sqlOf(db).run(`UPDATE "User" SET "role" = 'runner'`)),
    ];
    for (const refusal of refusals) {
      expect(refusal).not.toBeNull();
      expect(isLastActiveAdminRefusal(refusal), String(refusal)).toBe(true);
    }
    expect(await db.user.findUnique({ where: { id: "ada" } })).toMatchObject({ role: "admin", banned: false });
  });

  it("is not any error that merely quotes the marker, nor another abort", async () => {
    expect(isLastActiveAdminRefusal(new Error(`user ${LAST_ACTIVE_ADMIN_MARKER} not found`))).toBe(false);
    expect(isLastActiveAdminRefusal({ code: "P0001", message: "another trigger's refusal" })).toBe(false);
    const duplicate = await refusalOf(() =>
      db.user.create({ data: { id: LAST_ACTIVE_ADMIN_MARKER, name: "Ada", email: "ada@example.com" } }),
    );
    expect(duplicate).not.toBeNull();
    expect(isLastActiveAdminRefusal(duplicate)).toBe(false);
  });
});
